import { useMemo, useState } from 'react';
import { App, DatePicker, Form, Modal, Tag, Typography } from 'antd';
import { CalculatorOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { EChartsCoreOption } from 'echarts/core';
import { addDays, formatTsh, localDay } from '@dau/domain';
import { dailyCloseResource, type CloseRunAnswer } from '@dau/contract/ui';
import dayjs, { type Dayjs } from '../../../kit/dayjs';
import { api, type ListAnswer } from '../../../kit/api';
import { ActionButton, LoadError, Panel, ResourcePage, useFeedback, useLocale, type ResourceView, type Row } from '../../../resources';
import { Chart } from '../../statistics/Chart';
import { changeOf } from '../../statistics/delta';
import { FigureCard, FigureGrid, SERIES_COLORS, useCompact } from '../../statistics/shared';
import { CloseDetail } from './CloseDetail';

const PAGE = 'daily_close';
const DAY = 'YYYY-MM-DD';
/** The figures compared with the day before and a week before (each row carries them: `day_before`, `week_before`). */
type Compared = 'stakes' | 'payouts' | 'ggr' | 'bonuses' | 'ngr' | 'tax' | 'deposits' | 'withdrawals' | 'liability' | 'open_payout';
const CARDS: readonly Compared[] = ['stakes', 'payouts', 'ggr', 'bonuses', 'ngr', 'tax', 'deposits', 'withdrawals', 'liability', 'open_payout'];
const CARD_LABEL: Record<Compared, string> = {
  stakes: 'reports.field.stakes',
  payouts: 'reports.field.payouts',
  ggr: 'reports.field.ggr',
  bonuses: 'reports.field.bonuses',
  ngr: 'reports.field.ngr',
  tax: 'reports.field.tax',
  deposits: 'reports.field.deposits',
  withdrawals: 'reports.field.withdrawals',
  liability: 'reports.field.liability',
  open_payout: 'reports.field.open_payout',
};
/** The last day a close can be asked for: yesterday in Dar es Salaam (today is not over). */
const yesterday = () => addDays(localDay(Date.now()), -1);

type Baseline = Record<Compared, number> | null;
/** Each comparison stays on one line; a narrow card breaks between the two. */
const NOWRAP = { whiteSpace: 'nowrap' } as const;

/** "▲ 12% vs the day before · ▼ 3% vs a week before" (the arrow for the eye, the words for a screen reader). */
function CloseDelta({ value, row, k }: { value: number; row: Row; k: Compared }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const part = (base: Baseline, vs: string, testId: string) => {
    if (!base) return <span data-testid={testId} style={NOWRAP}>{t('reports.close.notClosed', { vs })}</span>;
    const c = changeOf(value, base[k]);
    const pct = c.pct === undefined ? '' : new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(c.pct);
    const said = {
      up: () => t('reports.close.up', { pct, vs }),
      down: () => t('reports.close.down', { pct, vs }),
      same: () => t('reports.close.same', { vs }),
      new: () => t('reports.close.new', { vs }),
      none: () => t('reports.close.none', { vs }),
    }[c.dir]();
    const arrow = c.dir === 'up' ? '▲ ' : c.dir === 'down' ? '▼ ' : '';
    return (
      <span data-testid={testId} data-dir={c.dir} aria-label={said} style={NOWRAP}>
        {c.dir === 'up' || c.dir === 'down' ? `${arrow}${pct}% ${vs}` : said}
      </span>
    );
  };
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }}>
      {part(row.day_before as Baseline, t('reports.close.dayBefore'), 'delta-day')} · {part(row.week_before as Baseline, t('reports.close.weekBefore'), 'delta-week')}
    </Typography.Text>
  );
}

/** The declaration with this screen's renderers: GGR and NGR with their change, the ledger's state, runs that differ. */
function useCloseView(): ResourceView {
  const { t } = useTranslation();
  const locale = useLocale();
  return useMemo(
    () => ({
      ...dailyCloseResource,
      fields: dailyCloseResource.fields.map((f) => {
        if (f.key === 'ggr' || f.key === 'ngr' || f.key === 'stakes') {
          return {
            ...f,
            render: (v: unknown, row: Row) => (
              <>
                <Typography.Text type={Number(v) < 0 ? 'danger' : undefined} style={{ whiteSpace: 'nowrap' }}>{formatTsh(Number(v), locale)}</Typography.Text>
                <CloseDelta value={Number(v)} row={row} k={f.key as Compared} />
              </>
            ),
          };
        }
        if (f.key === 'ledger_ok') {
          return {
            ...f,
            render: (v: unknown, row: Row) =>
              v ? <Tag color="green">{t('reports.close.ledgerOk')}</Tag> : <Tag color="red">{t('reports.close.ledgerBad', { n: Number(row.ledger_problems) })}</Tag>,
          };
        }
        if (f.key === 'differs') return { ...f, render: (v: unknown, row: Row) => (v ? <Tag color="orange">{String(row.runs)}</Tag> : <Typography.Text type="secondary">—</Typography.Text>) };
        return f;
      }),
    }),
    [t, locale],
  );
}

/**
 * The latest closed day of the list's period (the last 30 days unless the search says otherwise): its main
 * figures with their change from the day before and a week before, and a chart of the period.
 */
function CloseOverview() {
  const { t } = useTranslation();
  const compact = useCompact();
  const locale = useLocale();
  const [params] = useSearchParams();
  const period = { day_from: params.get('day_from') ?? addDays(yesterday(), -29), day_to: params.get('day_to') ?? yesterday() };
  const q = useQuery({
    queryKey: [PAGE, 'overview', period],
    queryFn: () => api.get<ListAnswer<Row>>(dailyCloseResource.api, { ...period, sort: 'day', page_size: 200 }),
  });
  const rows = q.data?.items ?? [];
  const latest = rows[rows.length - 1];
  const option = useMemo<EChartsCoreOption | undefined>(() => {
    if (!rows.length) return undefined;
    const series = (key: 'stakes' | 'ggr' | 'ngr', type: 'bar' | 'line', color: string) => ({
      name: t(CARD_LABEL[key]), type, data: rows.map((r) => Number(r[key]) / 100), itemStyle: { color }, lineStyle: { color },
    });
    return {
      tooltip: { trigger: 'axis', valueFormatter: (v: number) => formatTsh(Math.round(v * 100), locale) },
      legend: { top: 0 },
      grid: { left: 8, right: 8, bottom: 8, top: 36, containLabel: true },
      xAxis: { type: 'category', data: rows.map((r) => String(r.day)) },
      yAxis: { type: 'value', axisLabel: { formatter: (v: number) => compact(v * 100) } },
      series: [series('stakes', 'bar', SERIES_COLORS.turnover), series('ggr', 'line', SERIES_COLORS.ggr), series('ngr', 'line', SERIES_COLORS.payouts)],
    };
  }, [rows, t, locale, compact]);
  if (q.isError) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  if (q.data && !latest) {
    return (
      <Typography.Paragraph type="secondary" data-testid="close-overview-empty">
        {t('reports.close.noCloses')}
      </Typography.Paragraph>
    );
  }
  return (
    <div data-testid="close-overview">
      <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
        {latest ? t('reports.close.latest', { day: String(latest.day) }) : '\u00a0'}
      </Typography.Text>
      <FigureGrid>
        {CARDS.map((k) => (
          <FigureCard
            key={k}
            k={`close-${k}`}
            label={t(CARD_LABEL[k])}
            money
            value={latest ? Number(latest[k]) : undefined}
            loading={q.isPending}
            sub={latest ? <CloseDelta value={Number(latest[k])} row={latest} k={k} /> : undefined}
          />
        ))}
      </FigureGrid>
      <Panel title={t('reports.close.chart')} style={{ marginBottom: 16 }}>
        {option ? <Chart option={option} height={260} testId="close-chart" label={t('reports.close.chart')} /> : <div style={{ height: 260 }} />}
      </Panel>
    </div>
  );
}

/** "Close a day again": a past day, computed again from the ledger; the answer says whether the figures changed. */
function RunDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { fail } = useFeedback();
  const client = useQueryClient();
  const [, setParams] = useSearchParams();
  const [form] = Form.useForm<{ day: Dayjs }>();
  const [busy, setBusy] = useState(false);
  const last = dayjs(yesterday(), DAY);
  const submit = async () => {
    const { day } = await form.validateFields();
    setBusy(true);
    try {
      const r = await api.post<CloseRunAnswer>('/reports/daily_closes/run', { day: day.format(DAY) });
      const args = { run: r.run.run, day: r.run.day };
      if (!r.changed) void message.info(t('reports.close.runSame', args));
      else if (r.run.run > 1) void message.warning(t('reports.close.runDiffers', args), 6);
      else void message.success(t('reports.close.runStored', args));
      await client.invalidateQueries({ queryKey: [PAGE] });
      // Open the day's drawer (the list's row of its latest run).
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        next.set('open', String(r.run.id));
        return next;
      });
      onClose();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('reports.close.runTitle')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      okText={t('button.run')}
      okButtonProps={{ 'data-testid': 'close-run-submit' } as never}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('reports.close.runHelp')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ day: last }}>
        <Form.Item name="day" label={t('reports.close.runDay')} rules={[{ required: true }]}>
          <DatePicker disabledDate={(d: Dayjs) => d.isAfter(last, 'day')} data-testid="close-run-day" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Reports › Daily close (issue 30): the closed business days from the ledger (a declared list: filters, sort,
 * export as CSV or XLSX in the background), the latest day's figures against the day before and a week
 * before with a chart of the period, each day's every figure and runs in its drawer, and "close a day
 * again" for a past day (a run is stored only when its figures differ).
 */
export default function DailyClosePage() {
  const { t } = useTranslation();
  const view = useCloseView();
  const [running, setRunning] = useState(false);
  return (
    <div data-testid="daily-close">
      <ResourcePage
        def={view}
        intro={<CloseOverview />}
        detailColumns={2}
        detailTitle={(row) => t('reports.close.detailTitle', { day: String(row.day) })}
        detailExtra={(row) => <CloseDetail day={String(row.day)} />}
        toolbar={() => <ActionButton action="run" page={PAGE} icon={<CalculatorOutlined />} onClick={() => setRunning(true)} testId="close-run" />}
      >
        {running && <RunDialog onClose={() => setRunning(false)} />}
      </ResourcePage>
    </div>
  );
}
