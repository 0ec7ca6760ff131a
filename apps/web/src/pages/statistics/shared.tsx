import type { ReactNode } from 'react';
import { Col, Row as Grid, Statistic, Tooltip, Typography, theme as antdTheme } from 'antd';
import { InfoCircleOutlined } from '@ant-design/icons';
import { formatTsh } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import type { Figures, OpenBook } from '@dau/contract/ui';
import { Panel, useLocale } from '../../resources';
import { changeOf } from './delta';

// The figures, and the open book now (GET /statistics/today and /history `open`: not revenue, shown beside GGR).
export type { Figures, OpenBook } from '@dau/contract/ui';

export type FigureKey = keyof Figures | 'online_bettors' | 'net_deposits' | 'open_stakes' | 'open_liability';

export const MONEY_KEYS = new Set<FigureKey>([
  'turnover', 'settled_stake', 'payouts', 'cashouts', 'ggr', 'bonuses', 'ngr', 'tax', 'deposits', 'withdrawals', 'net_deposits', 'open_stakes', 'open_liability',
]);
/** Figures whose hint explains how they are computed. */
const HINTED = new Set<FigureKey>(['ggr', 'ngr', 'tax', 'bettors', 'cashouts', 'settled_stake', 'open_stakes', 'open_liability']);

/** TSh with the operator's separators, from cents. */
export function useMoney() {
  const locale = useLocale();
  return (cents: number) => formatTsh(cents, locale);
}

/** Compact TSh for chart axes (1.2M), from cents. */
export function useCompact() {
  const locale = useLocale();
  const fmt = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  return (cents: number) => fmt.format(cents / 100);
}

/** Whole numbers with the operator's separators. */
export function useCount() {
  const locale = useLocale();
  const fmt = new Intl.NumberFormat(locale);
  return (n: number) => fmt.format(n);
}

/** The chart colours, the same in both themes (readable on light and dark). */
export const SERIES_COLORS = { turnover: '#5b8ff9', payouts: '#f6903d', ggr: '#2f9e44', bettors: '#9254de', orders: '#36cfc9', deposits: '#13c2c2', withdrawals: '#eb2f96' };

/** The same figure yesterday and on the same weekday last week, each up to the same time of day (GET /statistics/today `compare`). */
export interface Baselines {
  yesterday: number;
  last_week: number;
}

const VISUALLY_HIDDEN = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;

/** "▲ 12% vs yesterday · ▼ 3% vs last week" under a figure. */
export function DeltaLine({ value, base }: { value: number; base: Baselines }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const part = (b: number, against: 'yesterday' | 'lastWeek') => {
    const c = changeOf(value, b);
    const vs = against === 'yesterday' ? t('statistics.delta.yesterday') : t('statistics.delta.lastWeek');
    const pct = c.pct === undefined ? '' : new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(c.pct);
    const arrow = c.dir === 'up' ? '▲' : c.dir === 'down' ? '▼' : c.dir === 'same' ? '=' : '';
    const said = {
      up: () => t('statistics.delta.up', { pct, vs }),
      down: () => t('statistics.delta.down', { pct, vs }),
      same: () => t('statistics.delta.same', { vs }),
      new: () => t('statistics.delta.new', { vs }),
      none: () => t('statistics.delta.none', { vs }),
    }[c.dir]();
    if (c.dir === 'new' || c.dir === 'none') return <span data-testid={`delta-${against}`} data-dir={c.dir}>{said}</span>;
    // The arrow is what the eye reads; a screen reader hears the words instead ("up 12% vs yesterday").
    return (
      <span data-testid={`delta-${against}`} data-dir={c.dir}>
        <span aria-hidden>{`${arrow} ${pct}% ${vs}`}</span>
        <span style={VISUALLY_HIDDEN}>{said}</span>
      </span>
    );
  };
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }} data-testid="figure-delta" title={t('statistics.delta.hint')}>
      {part(base.yesterday, 'yesterday')} · {part(base.last_week, 'lastWeek')}
    </Typography.Text>
  );
}

/**
 * One figure card: label (with the definition as a tooltip where needed), value, optional line below, and
 * its change against yesterday and last week when `base` is given. A figure of another area (virtual
 * racing's) brings its own `label`, `hint` and whether it is `money`.
 */
export function FigureCard({ k, value, loading, sub, label, hint, money: isMoney, base }: { k: FigureKey | string; value: number | undefined; loading?: boolean; sub?: ReactNode; label?: string; hint?: string; money?: boolean; base?: Baselines }) {
  const { t } = useTranslation();
  const money = useMoney();
  const count = useCount();
  const { token } = antdTheme.useToken();
  const negative = value !== undefined && value < 0;
  const signed = k === 'ggr' || k === 'ngr' || k === 'net_deposits';
  const definition = hint ?? (!label && HINTED.has(k as FigureKey) ? t(`statistics.hint.${k as 'ggr'}`) : undefined);
  const title = (
    <span>
      {label ?? t(`statistics.figure.${k}`)}
      {definition && (
        <Tooltip title={definition}>
          <InfoCircleOutlined style={{ marginInlineStart: 6, color: token.colorTextTertiary }} />
        </Tooltip>
      )}
    </span>
  );
  return (
    <Panel style={{ height: '100%' }} testId={`figure-${k}`}>
      <Statistic
        title={title}
        loading={loading}
        value={value === undefined ? '-' : (isMoney ?? MONEY_KEYS.has(k as FigureKey)) ? money(value) : count(value)}
        valueStyle={{ fontSize: 20, whiteSpace: 'nowrap', color: signed && value !== undefined && value !== 0 ? (negative ? token.colorErrorText : token.colorSuccessText) : undefined }}
      />
      {sub && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{sub}</Typography.Text>}
      {base && value !== undefined && !loading && <DeltaLine value={value} base={base} />}
    </Panel>
  );
}

/** A grid of figure cards. */
export function FigureGrid({ children }: { children: ReactNode[] }) {
  return (
    <Grid gutter={[12, 12]} style={{ marginBottom: 16 }}>
      {children.map((c, i) => (
        <Col key={i} xs={24} sm={12} lg={8} xl={6} xxl={4}>
          {c}
        </Col>
      ))}
    </Grid>
  );
}

/** The figures of yesterday and last week up to the same time (GET /statistics/today `compare`). */
export interface Comparison {
  yesterday: Figures;
  last_week: Figures;
}

/** The baselines of one figure (`net_deposits` is derived), or none without a comparison. */
export function baseOf(compare: Comparison | undefined, k: keyof Figures | 'net_deposits'): Baselines | undefined {
  if (!compare) return undefined;
  const of = (f: Figures) => (k === 'net_deposits' ? f.deposits - f.withdrawals : f[k]);
  return { yesterday: of(compare.yesterday), last_week: of(compare.last_week) };
}

/**
 * The cards both statistics pages open with, in their order: turnover, settled stake (`settledSub` under it),
 * payouts, GGR with the hold, the open book (stakes with the open orders, liability), NGR and tax. With
 * `compare` (today's page), each figure says its change against yesterday and last week; the open book is
 * a state of now, with no history to compare.
 */
export function useLeadCards() {
  const { t } = useTranslation();
  const hold = useHold();
  return (f: Figures | undefined, open: OpenBook | undefined, loading: boolean, settledSub?: ReactNode, compare?: Comparison): ReactNode[] => [
    <FigureCard key="turnover" k="turnover" value={f?.turnover} loading={loading} base={baseOf(compare, 'turnover')} />,
    <FigureCard key="settled_stake" k="settled_stake" value={f?.settled_stake} loading={loading} sub={settledSub} base={baseOf(compare, 'settled_stake')} />,
    <FigureCard key="payouts" k="payouts" value={f?.payouts} loading={loading} base={baseOf(compare, 'payouts')} />,
    <FigureCard key="ggr" k="ggr" value={f?.ggr} loading={loading} sub={f ? t('statistics.hint.margin', { value: hold(f) }) : undefined} base={baseOf(compare, 'ggr')} />,
    <FigureCard key="open_stakes" k="open_stakes" value={open?.open_stakes} loading={loading} sub={open ? t('statistics.hint.openOrders', { n: open.open_orders }) : undefined} />,
    <FigureCard key="open_liability" k="open_liability" value={open?.open_liability} loading={loading} />,
    <FigureCard key="ngr" k="ngr" value={f?.ngr} loading={loading} base={baseOf(compare, 'ngr')} />,
    <FigureCard key="tax" k="tax" value={f?.tax} loading={loading} base={baseOf(compare, 'tax')} />,
  ];
}

/** Hold (GGR as a share of turnover), e.g. "8.4 %". */
export function useHold() {
  const locale = useLocale();
  const fmt = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  // Hold is GGR over what it was made on: the stakes of the settled orders, never the open ones.
  return (f: { ggr: number; settled_stake: number }) => (f.settled_stake ? fmt.format(f.ggr / f.settled_stake) : '-');
}

/**
 * The options of the three series charts over a category axis (hours or days): money (bars turnover and
 * payouts, line GGR), activity (orders and bettors) and cash (deposits and withdrawals). `upTo` cuts the
 * series after that index (hours still to come).
 */
export function useSeriesOptions() {
  const { t } = useTranslation();
  const money = useMoney();
  const compact = useCompact();
  const count = useCount();
  return (labels: string[], rows: Figures[], upTo = rows.length - 1) => {
    const cut = (f: (r: Figures) => number) => rows.map((r, i) => (i <= upTo ? f(r) : null));
    const base = {
      grid: { left: 8, right: 12, top: 36, bottom: 8, containLabel: true },
      legend: { top: 0, type: 'scroll' },
      xAxis: { type: 'category', data: labels },
      tooltip: { trigger: 'axis' },
    };
    const moneyAxis = { type: 'value', minInterval: 100, axisLabel: { formatter: (v: number) => compact(v) } };
    const moneyTooltip = { trigger: 'axis', valueFormatter: (v: number | null) => (v === null || v === undefined ? '-' : money(v)) };
    const countTooltip = { trigger: 'axis', valueFormatter: (v: number | null) => (v === null || v === undefined ? '-' : count(v)) };
    const c = SERIES_COLORS;
    return {
      money: {
        ...base,
        tooltip: moneyTooltip,
        yAxis: moneyAxis,
        series: [
          { name: t('statistics.figure.turnover'), type: 'bar', data: cut((r) => r.turnover), itemStyle: { color: c.turnover } },
          { name: t('statistics.figure.payouts'), type: 'bar', data: cut((r) => r.payouts), itemStyle: { color: c.payouts } },
          { name: t('statistics.figure.ggr'), type: 'line', smooth: true, data: cut((r) => r.ggr), itemStyle: { color: c.ggr } },
        ],
      },
      activity: {
        ...base,
        tooltip: countTooltip,
        // Orders on the left axis, bettors (far fewer) on the right one.
        yAxis: [
          { type: 'value', minInterval: 1 },
          { type: 'value', minInterval: 1, splitLine: { show: false } },
        ],
        series: [
          { name: t('statistics.figure.orders'), type: 'bar', data: cut((r) => r.orders), itemStyle: { color: c.orders } },
          { name: t('statistics.figure.bettors'), type: 'line', yAxisIndex: 1, data: cut((r) => r.bettors), itemStyle: { color: c.bettors } },
          { name: t('statistics.figure.new_bettors'), type: 'line', yAxisIndex: 1, data: cut((r) => r.new_bettors), itemStyle: { color: '#faad14' } },
        ],
      },
      cash: {
        ...base,
        tooltip: moneyTooltip,
        yAxis: moneyAxis,
        series: [
          { name: t('statistics.figure.deposits'), type: 'bar', data: cut((r) => r.deposits), itemStyle: { color: c.deposits } },
          { name: t('statistics.figure.withdrawals'), type: 'bar', data: cut((r) => r.withdrawals), itemStyle: { color: c.withdrawals } },
        ],
      },
    };
  };
}

/** Whether a period has nothing at all to chart. */
export const isEmpty = (f: Figures | undefined) => !!f && !f.turnover && !f.orders && !f.payouts && !f.cashouts && !f.deposits && !f.withdrawals && !f.new_bettors;

/** The operator's day (Africa/Dar_es_Salaam, UTC+3) of an instant, as YYYY-MM-DD. */
export const darDay = (ms: number = Date.now()) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);
