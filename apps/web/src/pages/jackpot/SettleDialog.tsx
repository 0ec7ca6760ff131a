import { useEffect, useState } from 'react';
import { Alert, App, Button, Descriptions, Drawer, Flex, Skeleton, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useIsMobile } from '../../kit/dialog';
import { DialogBox } from '../../kit/DialogBox';
import { formatDateTime, LoadError, NoData, PlainTable, useApiMutation, type Row } from '../../resources';
import { ISSUE_LISTS, RESULT_CANCELLED, RESULT_SIGNS, TICKET_LISTS, useTsh } from './shared';

interface PlanTier {
  hits: number;
  proportion_bps: number;
  share: number;
  winning_lines: number;
  prize_per_line: number;
  paid: number;
  rollover: number;
  /** Shared: what the tier's lines did not get because a line never pays more than one of a tier with more hits (issue 23). */
  capped?: number;
}

/** The settlement plan the preview answers and a settlement record keeps (server jackpotPlanAnswer). */
export interface SettlePlan {
  issue_id: number;
  kind: 'settle' | 'resettle' | 'void' | 'delete';
  version: number;
  fingerprint: string;
  results: (number | null)[];
  pool: { carried: number; seed_top_up: number; from_stakes: number; from_incentives: number; total: number } | null;
  reward_type: number;
  tax_rate: number;
  max_add_balance: number;
  tiers: PlanTier[];
  totals: {
    tickets: number;
    lines: number;
    stakes: number;
    bonus_stakes: number;
    winning_tickets: number;
    winning_lines: number;
    gross: number;
    tax: number;
    credited: number;
    withheld: number;
    rollover: number;
    house_funded: number;
    refunds: number;
    net_income: number;
    net_profit: number;
    expenditure: number;
  };
  difference: { tickets: number; credited: number; tax: number; withheld: number; refunds: number };
}

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
      {refund && <Alert type="error" showIcon message={t('jackpot.settle.voidHint', { tickets: plan.totals.tickets, stakes: tsh(plan.totals.refunds || plan.totals.stakes) })} data-testid="settle-void" />}
      <div>
        <Typography.Text type="secondary">{t('jackpot.settle.results')}</Typography.Text>
        <ResultsLine results={plan.results} />
      </div>
      {!refund && plan.tiers.length > 0 && (
        <PlainTable<PlanTier>
          rowKey="hits"
          dataSource={plan.tiers}
          data-testid="settle-tiers"
          columns={[
            { key: 'hits', title: t('jackpot.settle.tier'), render: (_, r) => t('jackpot.tiers.hitsN', { n: r.hits }) },
            { key: 'share', title: t('jackpot.settle.share'), align: 'right', render: (_, r) => tsh(r.share) },
            { key: 'lines', title: t('jackpot.settle.winningLines'), align: 'right', render: (_, r) => <span data-testid={`tier-lines-${r.hits}`}>{r.winning_lines}</span> },
            {
              key: 'prize',
              title: t('jackpot.settle.prizePerLine'),
              align: 'right',
              render: (_, r) => (
                <Flex gap={4} justify="flex-end" align="center" wrap={false}>
                  {!!r.capped && (
                    <Tag color="orange" style={{ margin: 0 }} data-testid={`tier-capped-${r.hits}`}>
                      {t('jackpot.settle.capped', { amount: tsh(r.capped) })}
                    </Tag>
                  )}
                  <span data-testid={`tier-prize-${r.hits}`}>{tsh(r.prize_per_line)}</span>
                </Flex>
              ),
            },
            { key: 'paid', title: t('jackpot.settle.paid'), align: 'right', render: (_, r) => tsh(r.paid) },
            { key: 'rollover', title: t('jackpot.settle.rollover'), align: 'right', render: (_, r) => tsh(r.rollover) },
          ]}
        />
      )}
      {!refund && plan.tiers.some((x) => !!x.capped) && <Alert type="info" showIcon message={t('jackpot.settle.cappedHint')} data-testid="settle-capped-hint" />}
      <Descriptions
        bordered
        size="small"
        column={mobile ? 1 : 2}
        data-testid="settle-totals"
        items={[
          { key: 'tickets', label: t('jackpot.settle.tickets'), children: `${plan.totals.tickets} / ${plan.totals.lines}` },
          { key: 'stakes', label: t('jackpot.settle.stakes'), children: tsh(plan.totals.stakes) },
          ...(plan.pool ? [{ key: 'pool', label: t('jackpot.pool.total'), children: tsh(plan.pool.total) }] : []),
          ...(refund
            ? [{ key: 'refunds', label: t('jackpot.settle.refunds'), children: tsh(plan.totals.refunds || plan.totals.stakes) }]
            : [
                { key: 'gross', label: t('jackpot.settle.gross'), children: <span data-testid="settle-gross">{tsh(plan.totals.gross)}</span> },
                { key: 'tax', label: t('jackpot.settle.tax', { percent: plan.tax_rate / 100 }), children: <span data-testid="settle-tax">{tsh(plan.totals.tax)}</span> },
                { key: 'credited', label: t('jackpot.settle.totalPaid'), children: <Typography.Text strong data-testid="settle-paid">{tsh(plan.totals.credited)}</Typography.Text> },
                { key: 'withheld', label: t('jackpot.settle.withheld'), children: tsh(plan.totals.withheld) },
                { key: 'winners', label: t('jackpot.settle.winners'), children: `${plan.totals.winning_tickets} / ${plan.totals.winning_lines}` },
                { key: 'rollover', label: t('jackpot.settle.rolloverTotal'), children: <span data-testid="settle-rollover">{tsh(plan.totals.rollover)}</span> },
                {
                  key: 'house',
                  label: t('jackpot.settle.houseResult'),
                  children: (
                    <Typography.Text type={plan.totals.net_profit < 0 ? 'danger' : 'success'} strong data-testid="settle-house">
                      {tsh(plan.totals.net_profit)}
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
  const { message: toast } = App.useApp();
  const [plan, setPlan] = useState<SettlePlan | null>(null);
  const preview = useApiMutation(() => api.post<SettlePlan>(`/jackpot/issues/${issue!.id}/settle/preview`), { success: false, onSuccess: setPlan });
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
    <DialogBox
      open={!!issue}
      title={t('jackpot.settle.title', { identifier: String(issue?.identifier ?? '') })}
      maxWidth={1000}
      onClose={onClose}
      testId="settle-dialog"
      actions={
        <>
          <Button loading={preview.isPending} onClick={() => preview.mutate(undefined)} data-testid="settle-refresh">
            {t('jackpot.settle.previewAgain')}
          </Button>
          <Button type="primary" danger={plan?.kind === 'void'} disabled={!plan || preview.isPending} loading={confirm.isPending} onClick={() => void run()} data-testid="settle-confirm">
            {t('jackpot.settle.confirm')}
          </Button>
        </>
      }
    >
      <Typography.Paragraph type="secondary">{t('jackpot.settle.hint')}</Typography.Paragraph>
      {preview.isError && !plan ? <Alert type="error" showIcon message={t('jackpot.settle.previewFailed')} /> : !plan ? <Skeleton active /> : <PlanView plan={plan} />}
    </DialogBox>
  );
}

interface Settlement {
  id: number;
  version: number;
  kind: string;
  status: string;
  reason: string | null;
  admin_id: number | null;
  admin_account: string | null;
  created_at: string;
  finished_at: string | null;
  plan: SettlePlan | null;
}

/** Settlement records of an issue: each version (settle, resettle, void, delete), who, when, and its plan. */
export function SettlementsDrawer({ issue, onClose }: { issue: Row | null; onClose(): void }) {
  const { t } = useTranslation();
  const tsh = useTsh();
  const mobile = useIsMobile();
  const q = useQuery({
    queryKey: ['jackpot-settlements', issue?.id],
    queryFn: () => api.get<{ items: Settlement[] }>(`/jackpot/issues/${issue!.id}/settlements`),
    enabled: !!issue,
    // A running settlement is paid by a job: look again until it is done.
    refetchInterval: (query) => {
      return query.state.data?.items.some((s) => s.status === 'running') ? 2000 : false;
    },
  });
  const items = q.data?.items;
  return (
    <Drawer open={!!issue} title={t('jackpot.settle.recordsTitle', { identifier: String(issue?.identifier ?? '') })} size={mobile ? '100%' : 'large'} onClose={onClose} destroyOnHidden data-testid="settlements-drawer">
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : !items ? (
        <Skeleton active />
      ) : !items.length ? (
        <NoData />
      ) : (
        <PlainTable<Settlement>
          rowKey="id"
          dataSource={items}
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
            { key: 'admin', title: t('jackpot.settle.admin'), render: (_, s) => s.admin_account ?? (s.admin_id ? `#${s.admin_id}` : '-') },
            { key: 'created', title: t('jackpot.settle.created'), render: (_, s) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(s.created_at)}</span> },
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
