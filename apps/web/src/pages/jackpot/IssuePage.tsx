import { useMemo, useState } from 'react';
import {
  BarChartOutlined,
  CalculatorOutlined,
  DeleteOutlined,
  EditOutlined,
  HistoryOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  PlusOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Alert, Button, Descriptions, Form, Input, Skeleton, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { jackpotIssueResource } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { api, request } from '../../kit/api';
import { DialogBox } from '../../kit/DialogBox';
import { useMsg } from '../../kit/messages';
import {
  ActionButton,
  ActionMenu,
  FieldValue,
  FormModal,
  LoadError,
  ResourcePage,
  enumText,
  fieldOptions,
  useApiMutation,
  useLocale,
  type FieldView,
  type MenuAction,
  type Row,
} from '../../resources';
import { MatchesDialog } from './MatchesDialog';
import { ResultsDialog } from './ResultsDialog';
import { SettleDialog, SettlementsDrawer } from './SettleDialog';
import { StatisticsDrawer } from './StatisticsDrawer';
import { TiersValue } from './TiersInput';
import { Countdown, ISSUE_LISTS, jackpotView, MatchesTable, TICKET_LISTS, useIssue, useTsh } from './shared';

const PAGE = 'jackpot_identifier';
/** Issue states (domain jackpot_bet_status / jackpot_settle_status). */
const BET = { not_open: 1, open: 2, suspended: 3, closed: 4 } as const;
const SETTLE = { unsettled: 1, settling: 2, settled: 3, deleted: 4, voided: 5 } as const;

type Dialog = 'matches' | 'status' | 'results' | 'settle' | 'records' | 'statistics' | 'delete';
type Open = { kind: Dialog; row: Row } | null;

/** The issue's own figures under the drawer's fields: countdown, pool composition, tiers, matches and results. */
function IssueExtra({ id }: { id: unknown }) {
  const { t } = useTranslation();
  const tsh = useTsh();
  const q = useIssue(id);
  if (q.isError && !q.data) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Skeleton active />;
  const { issue, pool, tiers, matches } = q.data;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%', marginTop: 16 }} data-testid="issue-extra">
      <Descriptions
        bordered
        size="small"
        column={{ xs: 1, md: 2 }}
        items={[
          { key: 'close', label: t('jackpot.issue.closesIn'), children: <Countdown to={issue.bet_close_at as string} testId="issue-countdown" /> },
          { key: 'tiers', label: t('jackpot.field.tiers'), children: <TiersValue value={tiers} /> },
          { key: 'carried', label: t('jackpot.pool.carried'), children: tsh(pool.carried) },
          { key: 'seed', label: t('jackpot.pool.seed'), children: tsh(pool.seed_top_up) },
          { key: 'stakes', label: t('jackpot.pool.stakes'), children: tsh(pool.from_stakes) },
          { key: 'incentives', label: t('jackpot.pool.incentives'), children: tsh(pool.from_incentives) },
          { key: 'total', label: t('jackpot.pool.total'), children: <Typography.Text strong>{tsh(pool.total)}</Typography.Text> },
        ]}
      />
      {matches.length ? <MatchesTable matches={matches} testId="issue-matches" /> : <Alert type="info" showIcon message={t('jackpot.issue.noMatches')} />}
    </Space>
  );
}

/** Bet types to choose from when creating an issue (enabled ones). */
function useBetTypeOptions(enabled: boolean) {
  const q = useQuery({
    queryKey: ['jackpot_bet_type', { enabled: 'true', page_size: 100 }],
    queryFn: () => api.get<{ items: Row[] }>('/jackpot/bet_types', { enabled: 'true', page_size: 100 }),
    enabled,
  });
  return useMemo(() => (q.data?.items ?? []).map((r) => ({ value: Number(r.id), label: `${String(r.type)} · #${String(r.id)}` })), [q.data]);
}

/**
 * Jackpot › Issues (jackpot_identifier): the rounds with their countdown to bet close; each action is a
 * button permission: create, get matches, open bets, change bet status, change result, settle (preview
 * first) and its records, statistics with the risk view, delete (refunds every ticket).
 */
export default function IssuePage() {
  const { t } = useTranslation();
  const msg = useMsg();
  const locale = useLocale();
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<Open>(null);
  const betTypes = useBetTypeOptions(creating);
  const close = () => setOpen(null);
  const id = open?.row.id;

  const def = useMemo(
    () =>
      jackpotView(
        jackpotIssueResource,
        {
          bet_close_at: { keep: true, render: (v, row) => (row.bet_status === BET.open || row.bet_status === BET.not_open ? <Countdown to={v as string} testId={`countdown-${String(row.id)}`} /> : <FieldValue field={{ key: 'bet_close_at', type: 'datetime' }} value={v} />) },
          identifier: { keep: true },
          bet_status: { keep: true },
          settle_status: { keep: true },
        },
        { fetchDetail: false },
      ),
    [],
  );

  const createFields = useMemo<FieldView[]>(
    () => [
      { key: 'bet_type_id', type: 'enum', label: 'jackpot.field.bet_type', options: betTypes, editable: true, required: true },
      {
        key: 'identifier_prefix',
        type: 'text',
        label: 'jackpot.field.identifier_prefix',
        editable: true,
        required: true,
        maxLength: 16,
        default: 'JP',
        help: 'jackpot.help.identifier_prefix',
        rules: [{ pattern: /^[A-Za-z0-9_-]{1,16}$/, message: t('jackpot.issue.prefixFormat') }],
      },
      { key: 'start_time', type: 'datetime', label: 'jackpot.field.start_time', editable: true, required: true },
      { key: 'bet_close_at', type: 'datetime', label: 'jackpot.field.bet_close_at', editable: true, help: 'jackpot.help.bet_close_at' },
      { key: 'category_id', type: 'number', label: 'jackpot.field.category_id', editable: true, min: 1, help: 'jackpot.help.category_id' },
      { key: 'league_id', type: 'text', label: 'jackpot.field.league_id', editable: true, maxLength: 64 },
    ],
    [betTypes, t],
  );
  const create = useApiMutation((body: Row) => api.post<Row>('/jackpot/issues', body), { invalidate: ISSUE_LISTS });
  const openBets = useApiMutation((issueId: unknown) => api.post(`/jackpot/issues/${issueId}/open`), { invalidate: [...ISSUE_LISTS, ['jackpot-open-issues']] });
  const setStatus = useApiMutation((body: { bet_status: number }) => api.put(`/jackpot/issues/${id}/bet_status`, body), { invalidate: [...ISSUE_LISTS, ['jackpot-open-issues']] });
  const remove = useApiMutation((body: { reason: string }) => request('DELETE', `/jackpot/issues/${id}`, { body }), { invalidate: [...ISSUE_LISTS, ...TICKET_LISTS] });

  const statusFields = useMemo<FieldView[]>(() => {
    const field: FieldView = { key: 'bet_status', type: 'enum', enum: 'jackpot_bet_status', label: 'jackpot.field.bet_status', editable: true, required: true };
    return [{ ...field, options: fieldOptions(field, locale) }];
  }, [locale]);

  const actions = (row: Row, where: 'row' | 'detail') => {
    const live = row.settle_status === SETTLE.unsettled;
    const settled = row.settle_status === SETTLE.settled;
    const gone = row.settle_status === SETTLE.deleted || row.settle_status === SETTLE.voided;
    const rid = String(row.id);
    const to = (kind: Dialog) => () => setOpen({ kind, row });
    const items: MenuAction[] = [
      { action: 'get_matches', page: PAGE, icon: <UnorderedListOutlined />, hidden: !live || row.bet_status === BET.open, onClick: to('matches'), testId: `issue-get-matches-${rid}` },
      {
        action: 'open_bets',
        page: PAGE,
        icon: <PlayCircleOutlined />,
        hidden: !live || row.bet_status !== BET.not_open,
        confirm: t('jackpot.issue.openConfirm', { identifier: String(row.identifier) }),
        onClick: () => openBets.mutateAsync(row.id),
        testId: `issue-open-${rid}`,
      },
      { action: 'bet_status', page: PAGE, icon: <PauseCircleOutlined />, hidden: !live, onClick: to('status'), testId: `issue-status-${rid}` },
      { action: 'change_result', page: PAGE, icon: <EditOutlined />, hidden: gone || !Number(row.matches), onClick: to('results'), testId: `issue-results-${rid}` },
      { action: 'settle', page: PAGE, icon: <CalculatorOutlined />, label: settled ? t('jackpot.settle.resettle') : undefined, hidden: gone || !Number(row.matches), onClick: to('settle'), testId: `issue-settle-${rid}` },
      { action: 'settle', key: 'records', page: PAGE, icon: <HistoryOutlined />, label: t('jackpot.settle.records'), onClick: to('records'), testId: `issue-records-${rid}` },
      { action: 'statistics', page: PAGE, icon: <BarChartOutlined />, onClick: to('statistics'), testId: `issue-statistics-${rid}` },
      { action: 'delete', page: PAGE, icon: <DeleteOutlined />, danger: true, hidden: gone, onClick: to('delete'), testId: `issue-delete-${rid}` },
    ];
    return <ActionMenu items={items} testId={`issue-actions-${where}-${rid}`} label={t('jackpot.issue.actions')} />;
  };

  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      detailTitle={(row) => t('jackpot.issue.title', { identifier: String(row.identifier ?? '') })}
      rowActions={(row) => actions(row, 'row')}
      detailActions={(row) => actions(row, 'detail')}
      detailExtra={(row) => <IssueExtra id={row.id} />}
      toolbar={() => <ActionButton action="create" page={PAGE} type="primary" icon={<PlusOutlined />} testId="issue-create" onClick={() => setCreating(true)} />}
    >
      <FormModal
        open={creating}
        title={`${t('menu.jackpot_identifier')} · ${t('button.create')}`}
        fields={createFields}
        mode="create"
        maxWidth={720}
        hint={t('jackpot.issue.createHint')}
        onClose={() => setCreating(false)}
        onSubmit={(body) => create.mutateAsync(body)}
      />
      <MatchesDialog issue={open?.kind === 'matches' ? open.row : null} onClose={close} />
      <FormModal
        open={open?.kind === 'status'}
        title={t('jackpot.issue.statusTitle', { identifier: String(open?.row.identifier ?? '') })}
        fields={statusFields}
        mode="edit"
        record={open?.kind === 'status' ? open.row : undefined}
        maxWidth={480}
        hint={t('jackpot.issue.statusHint')}
        onClose={close}
        onSubmit={(body) => setStatus.mutateAsync(body as { bet_status: number })}
      />
      <ResultsDialog issue={open?.kind === 'results' ? open.row : null} onClose={close} />
      <SettleDialog issue={open?.kind === 'settle' ? open.row : null} onClose={close} onSettled={(row) => setOpen({ kind: 'records', row })} />
      <SettlementsDrawer issue={open?.kind === 'records' ? open.row : null} onClose={close} />
      <StatisticsDrawer issue={open?.kind === 'statistics' ? open.row : null} onClose={close} />
      <DeleteIssueDialog
        issue={open?.kind === 'delete' ? open.row : null}
        onClose={close}
        onDelete={(reason) => remove.mutateAsync({ reason }).then(close)}
        reasonMessage={msg('JACKPOT_REASON_REQUIRED')}
        statusLabel={open ? enumText('jackpot_settle_status', open.row.settle_status, locale) : ''}
      />
    </ResourcePage>
  );
}

/**
 * Delete an issue: it refunds every ticket of the round and cannot be undone (spec §8). A reason is
 * required; the server answers a repeated delete with the same result.
 */
function DeleteIssueDialog({ issue, onClose, onDelete, reasonMessage, statusLabel }: { issue: Row | null; onClose(): void; onDelete(reason: string): Promise<unknown>; reasonMessage: string; statusLabel: string }) {
  const { t } = useTranslation();
  const tsh = useTsh();
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      await onDelete(v.reason.trim());
    } catch {
      /* the mutation has shown the server's message */
    } finally {
      setBusy(false);
    }
  };
  return (
    <DialogBox
      open={!!issue}
      title={t('jackpot.delete.title', { identifier: String(issue?.identifier ?? '') })}
      onClose={onClose}
      testId="issue-delete-dialog"
      actions={
        <Button type="primary" danger loading={busy} onClick={() => void submit()} data-testid="issue-delete-confirm">
          {t('jackpot.delete.confirm')}
        </Button>
      }
    >
      <Alert
        type="error"
        showIcon
        style={{ marginBottom: 16 }}
        message={t('jackpot.delete.warning')}
        description={t('jackpot.delete.figures', { tickets: Number(issue?.tickets ?? 0), stakes: tsh(issue?.total_bet ?? 0), status: statusLabel })}
        data-testid="issue-delete-warning"
      />
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="reason" label={t('jackpot.delete.reason')} rules={[{ required: true, whitespace: true, message: reasonMessage }]}>
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 6 }} maxLength={500} showCount data-testid="issue-delete-reason" />
        </Form.Item>
      </Form>
    </DialogBox>
  );
}

