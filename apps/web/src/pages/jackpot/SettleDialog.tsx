import { useEffect, useState } from 'react';
import { Alert, App, Button, Descriptions, Drawer, Flex, Modal, Skeleton, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useDialogWidth, useIsMobile } from '../../app/dialog';
import { formatDateTime, LoadError, NoData, useApiMutation, type Row } from '../../resources';
import { ISSUE_LISTS, RESULT_CANCELLED, RESULT_SIGNS, TICKET_LISTS, useTsh } from './shared';

interface PlanTier {
  hits: number;
  share: number;
  winningLines: number;
  prizePerLine: number;
  paid: number;
  rollover: number;
}

/** The settlement plan the preview answers and a settlement record keeps (server StoredPlan). */
export interface SettlePlan {
  kind: 'settle' | 'resettle' | 'void' | 'delete';
  version: number;
  fingerprint: string;
  results: (number | null)[];
  plan: { tiers: PlanTier[]; rollover: number; pool: number; paid: number; unallocated: number } | null;
  pool: { carried: number; seedTopUp: number; fromStakes: number; fromIncentives: number; total: number } | null;
  taxBps: number;
  maxAddBalance: number;
  tickets: number;
  lines: number;
  stakes: number;
  totals: { gross: number; tax: number; credited: number; withheld: number; winningLines: number; winningTickets: number };
  difference: { tickets: number; credited: number; tax: number; withheld: number; refunds: number };
  figures: { netIncome: number; netProfit: number; expenditure: number };
}

/** The answer of a preview: the plan itself, or the plan under `plan`/`preview`. */
const planOf = (answer: unknown): SettlePlan => {
  const a = answer as Record<string, unknown>;
  if (a && typeof a === 'object' && 'fingerprint' in a) return a as unknown as SettlePlan;
  return ((a?.preview ?? a?.plan) as SettlePlan) ?? (a as unknown as SettlePlan);
};

/** The 13 results as signs ("1 X 2 · C"). */
function ResultsLine({ results }: { results: (number | null)[] }) {
  return (
    <Flex gap={4} wrap>
      {results.map((r, i) => (
        <Tag key={i} style={{ margin: 0, minWidth: 28, textAlign: 'center' }} color={r === RESULT_CANCELLED ? 'default' : 'geekblue'}>
          {r === null ? '-' : r === RESULT_CANCELLED ? 'C' : RESULT_SIGNS[r]}
        </Tag>
      ))}
    </Flex>
  );
}

/**
 * What a settlement pays (the preview, and a record's plan): per tier the winning lines, the prize per
 * line, paid and rolled over; the tax, what reaches balances and what is withheld over the cap, the
 * rollover to the next issue and the house's result.
 */
export function PlanView({ plan }: { plan: SettlePlan }) {
  const { t } = useTranslation();
  const tsh = useTsh();
  const mobile = useIsMobile();
  const refund = plan.kind === 'void' || plan.kind === 'delete';
  return (
    <Flex vertical gap={12} data-testid="settle-plan">
      {plan.kind === 'resettle' && <Alert type="warning" showIcon message={t('jackpot.settle.resettleHint', { version: plan.version })} />}
      {refund && <Alert type="error" showIcon message={t('jackpot.settle.voidHint', { tickets: plan.tickets, stakes: tsh(plan.difference.refunds || plan.stakes) })} data-testid="settle-void" />}
      <div>
        <Typography.Text type="secondary">{t('jackpot.settle.results')}</Typography.Text>
        <ResultsLine results={plan.results} />
      </div>
      {plan.plan && (
        <Table<PlanTier>
          size="small"
          rowKey="hits"
          pagination={false}
          scroll={{ x: 'max-content' }}
          dataSource={plan.plan.tiers}
          data-testid="settle-tiers"
          columns={[
            { key: 'hits', title: t('jackpot.settle.tier'), render: (_, r) => t('jackpot.tiers.hitsN', { n: r.hits }) },
            { key: 'share', title: t('jackpot.settle.share'), align: 'right', render: (_, r) => tsh(r.share) },
            { key: 'lines', title: t('jackpot.settle.winningLines'), align: 'right', render: (_, r) => <span data-testid={`tier-lines-${r.hits}`}>{r.winningLines}</span> },
            { key: 'prize', title: t('jackpot.settle.prizePerLine'), align: 'right', render: (_, r) => <span data-testid={`tier-prize-${r.hits}`}>{tsh(r.prizePerLine)}</span> },
            { key: 'paid', title: t('jackpot.settle.paid'), align: 'right', render: (_, r) => tsh(r.paid) },
            { key: 'rollover', title: t('jackpot.settle.rollover'), align: 'right', render: (_, r) => tsh(r.rollover) },
          ]}
        />
      )}
      <Descriptions
        bordered
        size="small"
        column={mobile ? 1 : 2}
        data-testid="settle-totals"
        items={[
          { key: 'tickets', label: t('jackpot.settle.tickets'), children: `${plan.tickets} / ${plan.lines}` },
          { key: 'stakes', label: t('jackpot.settle.stakes'), children: tsh(plan.stakes) },
          ...(plan.pool ? [{ key: 'pool', label: t('jackpot.pool.total'), children: tsh(plan.pool.total) }] : []),
          ...(refund
            ? [{ key: 'refunds', label: t('jackpot.settle.refunds'), children: tsh(plan.difference.refunds || plan.stakes) }]
            : [
                { key: 'gross', label: t('jackpot.settle.gross'), children: <span data-testid="settle-gross">{tsh(plan.totals.gross)}</span> },
                { key: 'tax', label: t('jackpot.settle.tax', { percent: plan.taxBps / 100 }), children: <span data-testid="settle-tax">{tsh(plan.totals.tax)}</span> },
                { key: 'credited', label: t('jackpot.settle.totalPaid'), children: <Typography.Text strong data-testid="settle-paid">{tsh(plan.totals.credited)}</Typography.Text> },
                { key: 'withheld', label: t('jackpot.settle.withheld'), children: tsh(plan.totals.withheld) },
                { key: 'winners', label: t('jackpot.settle.winners'), children: `${plan.totals.winningTickets} / ${plan.totals.winningLines}` },
                { key: 'rollover', label: t('jackpot.settle.rolloverTotal'), children: <span data-testid="settle-rollover">{tsh(plan.plan?.rollover ?? 0)}</span> },
                {
                  key: 'house',
                  label: t('jackpot.settle.houseResult'),
                  children: (
                    <Typography.Text type={plan.figures.netProfit < 0 ? 'danger' : 'success'} strong data-testid="settle-house">
                      {tsh(plan.figures.netProfit)}
                    </Typography.Text>
                  ),
                },
                ...(plan.kind === 'resettle'
                  ? [
                      { key: 'diff', label: t('jackpot.settle.difference'), children: t('jackpot.settle.differenceText', { tickets: plan.difference.tickets, credited: tsh(plan.difference.credited), tax: tsh(plan.difference.tax) }) },
                    ]
                  : []),
              ]),
        ]}
      />
    </Flex>
  );
}

/**
 * Settle (or resettle) an issue, like the sports result change: the preview answers what the
 * settlement would pay and moves nothing; Confirm sends the preview's fingerprint, so what runs is
 * exactly what was shown (a change since answers "preview again").
 */
export function SettleDialog({ issue, onClose, onSettled }: { issue: Row | null; onClose(): void; onSettled(row: Row): void }) {
  const { t } = useTranslation();
  const width = useDialogWidth(1000);
  const { message: toast } = App.useApp();
  const [plan, setPlan] = useState<SettlePlan | null>(null);
  const preview = useApiMutation(() => api.post<unknown>(`/jackpot/issues/${issue!.id}/settle/preview`), { success: false, onSuccess: (a) => setPlan(planOf(a)) });
  const confirm = useApiMutation((fingerprint: string) => api.post<unknown>(`/jackpot/issues/${issue!.id}/settle`, { fingerprint }), {
    success: false,
    invalidate: [...ISSUE_LISTS, ...TICKET_LISTS, ['jackpot-settlements']],
  });

  useEffect(() => {
    setPlan(null);
    if (issue) preview.mutate(undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [issue]);

  const run = async () => {
    if (!plan || !issue) return;
    const ok = await confirm.mutateAsync(plan.fingerprint).then(
      () => true,
      () => false,
    );
    if (!ok) {
      // A stale preview: show the new one.
      preview.mutate(undefined);
      return;
    }
    void toast.success(t(plan.kind === 'void' ? 'jackpot.settle.voided' : 'jackpot.settle.done', { identifier: String(issue.identifier) }));
    onClose();
    onSettled(issue);
  };

  return (
    <Modal
      open={!!issue}
      title={t('jackpot.settle.title', { identifier: String(issue?.identifier ?? '') })}
      width={width}
      onCancel={onClose}
      destroyOnHidden
      data-testid="settle-dialog"
      footer={
        <Flex gap={8} justify="flex-end">
          <Button onClick={onClose}>{t('action.cancel')}</Button>
          <Button loading={preview.isPending} onClick={() => preview.mutate(undefined)} data-testid="settle-refresh">
            {t('jackpot.settle.previewAgain')}
          </Button>
          <Button type="primary" danger={plan?.kind === 'void'} disabled={!plan || preview.isPending} loading={confirm.isPending} onClick={() => void run()} data-testid="settle-confirm">
            {t('jackpot.settle.confirm')}
          </Button>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary">{t('jackpot.settle.hint')}</Typography.Paragraph>
      {preview.isError && !plan ? <Alert type="error" showIcon message={t('jackpot.settle.previewFailed')} /> : !plan ? <Skeleton active /> : <PlanView plan={plan} />}
    </Modal>
  );
}

interface Settlement {
  id: number;
  version: number;
  kind: string;
  status: string;
  reason: string | null;
  admin?: string | null;
  admin_id?: number | null;
  created_at?: string;
  create_time?: string;
  finished_at?: string | null;
  plan: SettlePlan | null;
}

/** Settlement records of an issue: each version (settle, resettle, void, delete), who, when, and its plan. */
export function SettlementsDrawer({ issue, onClose }: { issue: Row | null; onClose(): void }) {
  const { t } = useTranslation();
  const tsh = useTsh();
  const mobile = useIsMobile();
  const q = useQuery({
    queryKey: ['jackpot-settlements', issue?.id],
    queryFn: () => api.get<{ items: Settlement[] } | Settlement[]>(`/jackpot/issues/${issue!.id}/settlements`),
    enabled: !!issue,
    // A running settlement is paid by a job: look again until it is done.
    refetchInterval: (query) => {
      const d = query.state.data;
      const items = Array.isArray(d) ? d : d?.items;
      return items?.some((s) => s.status === 'running') ? 2000 : false;
    },
  });
  const items = q.data ? (Array.isArray(q.data) ? q.data : q.data.items) : undefined;
  return (
    <Drawer open={!!issue} title={t('jackpot.settle.recordsTitle', { identifier: String(issue?.identifier ?? '') })} size={mobile ? '100%' : 'large'} onClose={onClose} destroyOnHidden data-testid="settlements-drawer">
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : !items ? (
        <Skeleton active />
      ) : !items.length ? (
        <NoData />
      ) : (
        <Table<Settlement>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={items}
          scroll={{ x: 'max-content' }}
          data-testid="settlements-table"
          expandable={{ expandedRowRender: (s) => (s.plan ? <PlanView plan={s.plan} /> : null), rowExpandable: (s) => !!s.plan }}
          columns={[
            { key: 'version', title: t('jackpot.settle.version'), dataIndex: 'version' },
            { key: 'kind', title: t('jackpot.settle.kind'), render: (_, s) => <Tag>{t(KIND_KEYS[s.kind] ?? 'jackpot.settle.kindSettle')}</Tag> },
            {
              key: 'status',
              title: t('jackpot.settle.status'),
              render: (_, s) => <Tag color={s.status === 'done' ? 'green' : 'blue'} data-testid={`settlement-status-${s.version}`}>{s.status === 'done' ? t('jackpot.settle.statusDone') : t('jackpot.settle.statusRunning')}</Tag>,
            },
            { key: 'paid', title: t('jackpot.settle.totalPaid'), align: 'right', render: (_, s) => tsh(s.plan?.totals?.credited ?? 0) },
            { key: 'reason', title: t('jackpot.settle.reason'), render: (_, s) => s.reason || '-' },
            { key: 'admin', title: t('jackpot.settle.admin'), render: (_, s) => s.admin ?? (s.admin_id ? `#${s.admin_id}` : '-') },
            { key: 'created', title: t('jackpot.settle.created'), render: (_, s) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(s.created_at ?? s.create_time)}</span> },
            { key: 'finished', title: t('jackpot.settle.finished'), render: (_, s) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(s.finished_at)}</span> },
          ]}
        />
      )}
    </Drawer>
  );
}

const KIND_KEYS: Record<string, string> = {
  settle: 'jackpot.settle.kindSettle',
  resettle: 'jackpot.settle.kindResettle',
  void: 'jackpot.settle.kindVoid',
  delete: 'jackpot.settle.kindDelete',
};
