import { useMemo } from 'react';
import { Alert, Descriptions, Empty, Flex, Skeleton, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { inZone } from '../../kit/timeZone';
import { useTimeZone } from '../../kit/zone';
import { LoadError, useLocale } from '../../resources';
import { Chart } from '../statistics/Chart';
import { useCount, usePercent } from './shared';

/** One point of GET /casino/games/:id/rtp: the actual RTP after `rounds` rounds and the band it may be in. */
export interface RtpPoint {
  at: string;
  rounds: number;
  turnover?: number;
  payouts?: number;
  actual_bps: number | null;
  low_bps: number;
  high_bps: number;
  inside: boolean;
}

export interface RtpSeries {
  game_id: number;
  rtp_bps: number;
  volatility?: number;
  confidence_bps?: number;
  points: RtpPoint[];
}

/** The series route's answer, read whatever the spelling of its time key (`at`, `checked_at`, `day`). */
function readSeries(answer: unknown, gameId: number): RtpSeries {
  const a = (answer ?? {}) as Record<string, unknown>;
  const game = (a.game ?? {}) as Record<string, unknown>;
  const raw = (Array.isArray(a.points) ? a.points : Array.isArray(a.items) ? a.items : Array.isArray(a.series) ? a.series : []) as Record<string, unknown>[];
  const num = (v: unknown) => (v === null || v === undefined || v === '' ? null : Number(v));
  return {
    game_id: gameId,
    rtp_bps: Number(a.rtp_bps ?? a.theoretical_bps ?? game.rtp_bps ?? 0),
    volatility: num(a.volatility ?? game.volatility) ?? undefined,
    confidence_bps: num(a.confidence_bps ?? a.rtp_alert_confidence) ?? undefined,
    points: raw.map((p) => ({
      at: String(p.at ?? p.checked_at ?? p.time ?? p.day ?? ''),
      rounds: Number(p.rounds ?? 0),
      turnover: num(p.turnover) ?? undefined,
      payouts: num(p.payouts) ?? undefined,
      actual_bps: num(p.actual_bps),
      low_bps: Number(p.low_bps ?? 0),
      high_bps: Number(p.high_bps ?? 0),
      inside: p.inside === undefined ? true : !!p.inside,
    })),
  };
}

export const useRtpSeries = (gameId: number | undefined, range?: { from?: string; to?: string }) =>
  useQuery({
    queryKey: ['casino-rtp', gameId, range?.from, range?.to],
    queryFn: async () => readSeries(await api.get<unknown>(`/casino/games/${gameId}/rtp`, { ...(range?.from ? { checked_from: range.from } : {}), ...(range?.to ? { checked_to: range.to } : {}) }), gameId!),
    enabled: gameId !== undefined,
  });

/** The chart colours, readable on light and dark. */
const COLORS = { actual: '#1677ff', band: '#52c41a', theoretical: '#fa8c16', outside: '#ff4d4f' };

/**
 * A game's RTP over time: the actual RTP (a line, red points where it left the band), the confidence band
 * allowed by the theoretical RTP, the volatility and the rounds played (an area between low and high:
 * an invisible line at `low` with `high - low` stacked on it), and the theoretical RTP (dashed).
 */
export function RtpChart({ gameId, range, height = 300 }: { gameId: number; range?: { from?: string; to?: string }; height?: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const percent = usePercent();
  const count = useCount();
  const zone = useTimeZone();
  const q = useRtpSeries(gameId, range);
  const s = q.data;
  const last = s?.points.at(-1);
  const outside = s?.points.filter((p) => p.actual_bps !== null && !p.inside).length ?? 0;

  const option = useMemo(() => {
    if (!s || !s.points.length) return undefined;
    const labels = s.points.map((p) => (p.at ? inZone(p.at).format('MM-DD HH:mm') : String(p.rounds)));
    const pct = (bps: number | null) => (bps === null ? null : bps / 100);
    const fmt = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
    const focus = [s.rtp_bps, ...s.points.map((p) => p.actual_bps).filter((v): v is number => v !== null)].map((v) => v / 100);
    const yMin = Math.max(0, Math.floor((Math.min(...focus) - 20) / 10) * 10);
    const yMax = Math.ceil((Math.max(...focus) + 20) / 10) * 10;
    const names = { actual: t('casino.rtp.actual'), band: t('casino.rtp.band'), theoretical: t('casino.rtp.theoretical'), low: t('casino.rtp.low'), high: t('casino.rtp.high'), rounds: t('casino.rtp.rounds') };
    return {
      // Drawn at once: a reading, not a show (and a screenshot right after shows every series).
      animation: false,
      grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
      legend: { top: 0, type: 'scroll', data: [names.actual, names.band, names.theoretical] },
      tooltip: {
        trigger: 'axis',
        formatter: (items: Array<{ dataIndex: number }>) => {
          const p = s.points[items[0]?.dataIndex ?? 0];
          if (!p) return '';
          const row = (color: string, name: string, value: string) =>
            `<div><span style="display:inline-block;width:8px;height:8px;border-radius:4px;margin-right:6px;background:${color}"></span>${name}: <b>${value}</b></div>`;
          return [
            `<div>${labels[items[0]?.dataIndex ?? 0]} · ${names.rounds}: ${count(p.rounds)}</div>`,
            row(p.inside ? COLORS.actual : COLORS.outside, names.actual, percent(p.actual_bps)),
            row(COLORS.band, names.band, `${percent(p.low_bps)} – ${percent(p.high_bps)}`),
            row(COLORS.theoretical, names.theoretical, percent(s.rtp_bps)),
          ].join('');
        },
      },
      xAxis: { type: 'category', data: labels },
      // The band is very wide over few rounds: the axis shows the actual and theoretical RTP with some
      // room around them, and the band is cut at the edges (anything on screen is inside it then).
      yAxis: { type: 'value', min: yMin, max: yMax, axisLabel: { formatter: (v: number) => `${fmt.format(v)} %` } },
      series: [
        // The band: a transparent bar up to `low` with `high - low` stacked on it, bars touching (one per check).
        { name: names.low, type: 'bar', stack: 'band', barCategoryGap: '0%', data: s.points.map((p) => pct(p.low_bps)), itemStyle: { color: 'transparent' }, silent: true, tooltip: { show: false } },
        {
          name: names.band,
          type: 'bar',
          stack: 'band',
          barCategoryGap: '0%',
          data: s.points.map((p) => pct(p.high_bps - p.low_bps)),
          itemStyle: { color: COLORS.band, opacity: 0.25 },
          emphasis: { disabled: true },
        },
        {
          name: names.theoretical,
          type: 'line',
          data: s.points.map(() => pct(s.rtp_bps)),
          lineStyle: { type: 'dashed', width: 1.5, color: COLORS.theoretical },
          itemStyle: { color: COLORS.theoretical },
          // One check: no line to draw, a marker instead.
          symbol: s.points.length === 1 ? 'diamond' : 'none',
          symbolSize: 10,
        },
        {
          name: names.actual,
          type: 'line',
          data: s.points.map((p) => ({ value: pct(p.actual_bps), itemStyle: { color: p.inside ? COLORS.actual : COLORS.outside } })),
          lineStyle: { width: 2, color: COLORS.actual },
          itemStyle: { color: COLORS.actual },
          symbol: 'circle',
          symbolSize: 8,
          connectNulls: true,
          z: 3,
        },
      ],
    };
    // zone: the labels follow the operator's time zone
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [s, t, locale, zone]);

  if (q.isError && !s) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  if (!s) return <Skeleton active paragraph={{ rows: 6 }} />;
  return (
    <div data-testid="rtp-chart-panel">
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 4 }}
        style={{ marginBottom: 12 }}
        items={[
          { key: 'theoretical', label: t('casino.rtp.theoretical'), children: <span data-testid="rtp-theoretical">{percent(s.rtp_bps)}</span> },
          { key: 'actual', label: t('casino.rtp.actual'), children: <span data-testid="rtp-actual">{percent(last?.actual_bps)}</span> },
          { key: 'band', label: t('casino.rtp.band'), children: last ? `${percent(last.low_bps)} – ${percent(last.high_bps)}` : '-' },
          { key: 'rounds', label: t('casino.rtp.rounds'), children: last ? count(last.rounds) : '-' },
        ]}
      />
      {last && (
        <Flex gap={8} align="center" wrap style={{ marginBottom: 8 }}>
          {last.actual_bps === null ? null : last.inside ? (
            <Tag color="green" data-testid="rtp-inside">{t('casino.rtp.inside')}</Tag>
          ) : (
            <Tag color="red" data-testid="rtp-outside">{t('casino.rtp.outside')}</Tag>
          )}
          {s.confidence_bps ? <Typography.Text type="secondary">{t('casino.rtp.confidence', { value: percent(s.confidence_bps) })}</Typography.Text> : null}
        </Flex>
      )}
      {outside > 0 && <Alert type="warning" showIcon style={{ marginBottom: 8 }} message={t('casino.rtp.left', { n: outside })} data-testid="rtp-left" />}
      {option ? (
        <Chart option={option} height={height} testId="rtp-chart" label={t('casino.rtp.title')} />
      ) : (
        <div style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }} data-testid="rtp-empty">
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('casino.rtp.none')} />
        </div>
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('casino.rtp.reading')}
      </Typography.Text>
    </div>
  );
}
