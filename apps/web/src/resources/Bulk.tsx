import { useState, type ReactNode } from 'react';
import { CloseOutlined } from '@ant-design/icons';
import { Button, Modal, Space, Tag, Typography, App } from 'antd';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { BULK_MAX_IDS, type BulkAnswer, type BulkOutcome } from '@dau/contract/ui';
import { formatTsh } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { useFeedback } from './feedback';
import { useLocale } from './locale';
import { PlainTable } from './PlainTable';

/**
 * Bulk actions (issue 29), shared by every list that offers them (withdrawals, activity qualifications,
 * a match's markets): the bar over the selection ("N selected · total TSh X", the actions, clear), and the
 * run of one bulk call: its answer as a toast summary and a dialog listing each row's outcome (done, or
 * the server's refusal), then the lists refreshed. The confirmation naming the count and the total is the
 * action's own (an ActionButton's `confirm`, or the reason dialog of a refusal): one per call.
 */

/** A selected row as the bar and the result name it: its id for the call, a label (serial, market), its amount. */
export interface BulkRow {
  id: number | string;
  label: ReactNode;
  /** In cents; the bar shows the total when the rows have amounts. */
  amount?: number;
}

/** The total amount of the rows (cents), or undefined when they have none. */
export const bulkTotal = (rows: readonly BulkRow[]): number | undefined =>
  rows.some((r) => r.amount !== undefined) ? rows.reduce((s, r) => s + (r.amount ?? 0), 0) : undefined;

/** "20 selected · total TSh 123,000": the count and total as the bar and the confirmations say them. */
export function useBulkWords() {
  const locale = useLocale();
  return (rows: readonly BulkRow[]) => {
    const total = bulkTotal(rows);
    return { count: rows.length, total: total === undefined ? '' : formatTsh(total, locale) };
  };
}

/** The bar over a list's selection: shown while rows are selected. Past BULK_MAX_IDS the actions are off. */
export function BulkBar({ rows, onClear, children }: { rows: readonly BulkRow[]; onClear(): void; children: ReactNode }) {
  const { t } = useTranslation();
  const words = useBulkWords()(rows);
  if (!rows.length) return null;
  const tooMany = rows.length > BULK_MAX_IDS;
  return (
    <Space wrap size={8} data-testid="bulk-bar" role="group" aria-label={t('bulk.selected', { count: rows.length })}>
      <Typography.Text strong data-testid="bulk-summary">
        {t('bulk.selected', { count: words.count })}
        {words.total && ` · ${t('bulk.total', { amount: words.total })}`}
      </Typography.Text>
      {tooMany ? <Typography.Text type="warning">{t('bulk.tooMany', { max: BULK_MAX_IDS })}</Typography.Text> : children}
      <Button size="small" type="text" icon={<CloseOutlined />} onClick={onClear} data-testid="bulk-clear">
        {t('bulk.clear')}
      </Button>
    </Space>
  );
}

const NOWRAP = { whiteSpace: 'nowrap' } as const;

interface Shown {
  title: string;
  rows: BulkRow[];
  items: BulkOutcome[];
  okText?: (o: BulkOutcome) => string;
}

/**
 * Runs a bulk call over rows and shows what became of each. `run` answers once the result is shown (or
 * throws after showing the error of a call refused as a whole: over the limit, no permission).
 */
export function useBulkRun() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { fail } = useFeedback();
  const client = useQueryClient();
  const [shown, setShown] = useState<Shown | null>(null);
  const [open, setOpen] = useState(false);

  const run = async (o: {
    title: string;
    rows: BulkRow[];
    call: (ids: (number | string)[]) => Promise<BulkAnswer>;
    /** What a done row became (e.g. "Awaiting second approval"); default "Done". */
    okText?: (o: BulkOutcome) => string;
    invalidate?: QueryKey[];
  }) => {
    let answer: BulkAnswer;
    try {
      answer = await o.call(o.rows.map((r) => r.id));
    } catch (err) {
      fail(err);
      throw err;
    }
    const done = answer.items.filter((i) => i.ok).length;
    const refused = answer.items.length - done;
    if (refused) void message.warning(t('bulk.summaryRefused', { done, count: answer.items.length, refused }), 6);
    else void message.success(t('bulk.summary', { done, count: answer.items.length }));
    setShown({ title: o.title, rows: o.rows, items: answer.items, okText: o.okText });
    setOpen(true);
    await Promise.all((o.invalidate ?? []).map((queryKey) => client.invalidateQueries({ queryKey })));
  };

  const modal = <BulkResult shown={shown} open={open} onClose={() => setOpen(false)} />;
  return { run, modal };
}

function BulkResult({ shown, open, onClose }: { shown: Shown | null; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const outcomes = new Map((shown?.items ?? []).map((i) => [String(i.id), i]));
  // The refused rows first: they are what the operator has to look at.
  const rows = (shown?.rows ?? []).filter((r) => outcomes.has(String(r.id))).sort((a, b) => Number(outcomes.get(String(a.id))!.ok) - Number(outcomes.get(String(b.id))!.ok));
  const done = shown?.items.filter((i) => i.ok).length ?? 0;
  const hasAmounts = bulkTotal(rows) !== undefined;
  return (
    <Modal
      open={open}
      title={shown?.title}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="bulk-result-close">
          {t('bulk.close')}
        </Button>
      }
      width={720}
      data-testid="bulk-result"
    >
      <Typography.Paragraph data-testid="bulk-result-summary">
        {t('bulk.summary', { done, count: shown?.items.length ?? 0 })}
        {shown && done < shown.items.length && ` · ${t('bulk.refusedCount', { count: shown.items.length - done })}`}
      </Typography.Paragraph>
      <PlainTable<BulkRow>
        rowKey={(r) => String(r.id)}
        dataSource={rows}
        // The refusal's text wraps within the dialog rather than scrolling out of it.
        scroll={{ y: 420 }}
        columns={[
          { key: 'label', title: t('bulk.row'), onCell: () => ({ style: NOWRAP }), render: (_, r) => r.label },
          ...(hasAmounts
            ? [{ key: 'amount', title: t('bulk.amount'), align: 'right' as const, onCell: () => ({ style: NOWRAP }), render: (_: unknown, r: BulkRow) => (r.amount === undefined ? '' : formatTsh(r.amount, locale)) }]
            : []),
          {
            key: 'outcome',
            title: t('bulk.outcome'),
            render: (_, r) => {
              const o = outcomes.get(String(r.id))!;
              return o.ok ? (
                <Tag color="green" data-testid={`bulk-outcome-${String(r.id)}`} data-ok="true">
                  {shown?.okText?.(o) ?? t('bulk.done')}
                </Tag>
              ) : (
                <Space size={4} data-testid={`bulk-outcome-${String(r.id)}`} data-ok="false" wrap>
                  <Tag color="red">{t('bulk.refused')}</Tag>
                  <Typography.Text type="danger">{o.message ?? o.code}</Typography.Text>
                </Space>
              );
            },
          },
        ]}
      />
    </Modal>
  );
}
