import { useEffect, useMemo, useRef, useState } from 'react';
import { ClearOutlined, LinkOutlined } from '@ant-design/icons';
import { Alert, App, Button, Descriptions, Flex, Modal, Result, Select, Skeleton, Space, Switch, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { checkTicket } from '@dau/domain';
import type { JackpotIssueRow, JackpotMatchRow, JackpotQuoteAnswer } from '@dau/contract/ui';
import { ApiFailure, api, newIdempotencyKey } from '../../kit/api';
import { useMsg } from '../../kit/messages';
import { useAccess } from '../../kit/access';
import { useIsMobile } from '../../kit/dialog';
import { formatDateTime, LoadError, NoData, PageHeader, Panel, PlainTable, useApiMutation, type Row } from '../../resources';
import { Countdown, linesOf, MATCHES, MatchName, PICK_BITS, TICKET_LISTS, ISSUE_LISTS, useTsh, type MatchRow } from './shared';

const PAGE = 'jackpot_bet';

/** An issue open for betting with its matches and the rules a ticket is checked against (GET /jackpot/open-issues). */
interface OpenIssue {
  issue: JackpotIssueRow;
  matches: JackpotMatchRow[];
  unit: number;
  max_doubles: number;
  max_triples: number;
  allow_bonus: boolean;
}

function useOpenIssues() {
  return useQuery({ queryKey: ['jackpot-open-issues'], queryFn: () => api.get<{ items: OpenIssue[] }>('/jackpot/open-issues') });
}

/**
 * Bettors found by phone: the user list where the admin may read it, else the customer-service lookup.
 * At least four digits before anything is asked.
 */
function useBettorSearch(phone: string) {
  const q = phone.replace(/\D/g, '');
  return useQuery({
    queryKey: ['jackpot-bettor-search', q],
    enabled: q.length >= 4,
    queryFn: async () => {
      const query = { phone: q, page_size: 10 };
      try {
        return (await api.get<{ items: Row[] }>('/money/bettors', query)).items;
      } catch (e) {
        if (e instanceof ApiFailure && e.status === 403) return (await api.get<{ items: Row[] }>('/money/cs/bettors', query)).items;
        throw e;
      }
    },
  });
}

/** One match's three toggles: 1, X, 2 (a double or a triple is two or three of them on). */
function PickToggles({ mask, onChange, position, danger }: { mask: number; onChange(mask: number): void; position: number; danger?: boolean }) {
  return (
    <Flex gap={6}>
      {PICK_BITS.map((p) => {
        const on = (mask & p.bit) !== 0;
        return (
          <Button
            key={p.sign}
            type={on ? 'primary' : 'default'}
            danger={danger && on}
            aria-pressed={on}
            aria-label={`${position} ${p.sign}`}
            style={{ width: 44, fontWeight: 600 }}
            onClick={() => onChange(mask ^ p.bit)}
            data-testid={`pick-${position}-${p.sign}`}
          >
            {p.sign}
          </Button>
        );
      })}
    </Flex>
  );
}

/**
 * Jackpot › Place a ticket (jackpot_bet): an operator places a ticket for a bettor through the same
 * service as the bettor's app. Choose an open issue and the bettor (by phone), then 1 / X / 2 for each of
 * the 13 matches; the lines, the stake and any refusal come live from the server's quote; a confirmation
 * shows lines and stake before anything is paid; the placed ticket is linked.
 */
export default function BetPage() {
  const { t } = useTranslation();
  const msg = useMsg();
  const tsh = useTsh();
  const mobile = useIsMobile();
  const { can, hasScreen } = useAccess();
  const { message: toast } = App.useApp();
  const issues = useOpenIssues();
  const [issueId, setIssueId] = useState<number | undefined>();
  const [phone, setPhone] = useState('');
  const [bettor, setBettor] = useState<Row | null>(null);
  const [picks, setPicks] = useState<number[]>(() => Array(MATCHES).fill(0));
  const [useBonus, setUseBonus] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [placed, setPlaced] = useState<Row | null>(null);
  const idempotency = useRef(newIdempotencyKey());
  const found = useBettorSearch(phone);
  const open = issues.data?.items.find((i) => i.issue.id === issueId);
  const issue = open?.issue;
  const matches: MatchRow[] = open?.matches ?? [];

  // A new issue starts a new slip.
  useEffect(() => {
    setPicks(Array(MATCHES).fill(0));
    setPlaced(null);
  }, [issueId]);

  const complete = picks.every((m) => m !== 0);
  const lines = complete ? linesOf(picks) : 0;
  // The bet type's rules, checked here as the server will (domain checkTicket); the server's quote has the last word.
  const check = open ? checkTicket(picks, { maxDoubles: open.max_doubles, maxTriples: open.max_triples, guessNumber: Number(open.issue.max_choose) }) : null;
  const localRefusal = check && !check.ok && (check.code !== 'SELECT_RESULT' || picks.some((m) => m !== 0)) ? check : null;
  const body = { issue_id: issueId, bettor_id: bettor ? Number(bettor.id) : undefined, picks, use_bonus: useBonus && !!open?.allow_bonus };
  const quote = useQuery({
    queryKey: ['jackpot-quote', body],
    queryFn: () => api.post<JackpotQuoteAnswer>('/jackpot/tickets/quote', body),
    enabled: !!issueId && !!bettor && complete,
    placeholderData: (prev) => prev,
    staleTime: 5_000,
  });
  const q = quote.data;

  const place = useApiMutation((b: typeof body) => api.post<Row>('/jackpot/tickets', b, { headers: { 'Idempotency-Key': idempotency.current } }), {
    success: false,
    invalidate: [...TICKET_LISTS, ...ISSUE_LISTS],
    onSuccess: (answer) => {
      const ticket = ((answer as { ticket?: Row }).ticket ?? answer) as Row;
      setPlaced(ticket);
      setConfirming(false);
      idempotency.current = newIdempotencyKey();
      void toast.success(t('jackpot.bet.placed', { serial: String(ticket.serial_number ?? ticket.id) }));
    },
  });

  const bettorOptions = useMemo(
    () => (found.data ?? []).map((b) => ({ value: Number(b.id), label: `${String(b.phone)}${b.name ? ` · ${String(b.name)}` : ''} · ${tsh(b.balance)}`, row: b })),
    [found.data, tsh],
  );
  const ticketList = ['jackpot_bet_list', 'cs_jackpot_bet_list'].find((p) => hasScreen(p) && can(p));

  const set = (i: number, mask: number) => setPicks((p) => p.map((m, j) => (j === i ? mask : m)));
  const refusedAt = q && !q.ok && q.match ? q.match : localRefusal?.match !== undefined ? localRefusal.match + 1 : null;
  const refusal = q && !q.ok && q.message ? q.message : localRefusal ? msg(localRefusal.code) : null;

  if (placed) {
    const serial = String(placed.serial_number ?? '');
    return (
      <>
        <PageHeader title={t('menu.jackpot_bet')} description={t('jackpot.describe.jackpot_bet')} />
        <Result
          status="success"
          title={t('jackpot.bet.placed', { serial })}
          subTitle={t('jackpot.bet.placedText', { lines: Number(placed.lines ?? 0), stake: tsh(placed.stake), phone: String(bettor?.phone ?? '') })}
          data-testid="bet-placed"
          extra={[
            ticketList && (
              <Button key="open" type="primary" icon={<LinkOutlined />} href={`#/customer/${ticketList}?serial_number=${encodeURIComponent(serial)}`} data-testid="bet-open-ticket">
                {t('jackpot.bet.openTicket')}
              </Button>
            ),
            <Button
              key="again"
              onClick={() => {
                setPlaced(null);
                setPicks(Array(MATCHES).fill(0));
              }}
              data-testid="bet-again"
            >
              {t('jackpot.bet.again')}
            </Button>,
          ]}
        />
      </>
    );
  }

  return (
    <>
      <PageHeader title={t('menu.jackpot_bet')} description={t('jackpot.describe.jackpot_bet')} />
      <Flex vertical gap={16}>
        <Panel>
          <Flex gap={16} wrap align="flex-end">
            <div style={{ flex: '1 1 280px' }}>
              <Typography.Text strong style={{ display: 'block', marginBottom: 4 }}>
                {t('jackpot.bet.issue')}
              </Typography.Text>
              <Select
                style={{ width: '100%' }}
                placeholder={t('jackpot.bet.issuePlaceholder')}
                loading={issues.isLoading}
                value={issueId}
                onChange={(v: number) => setIssueId(v)}
                notFoundContent={issues.isError ? t('jackpot.bet.issuesFailed') : <NoData />}
                options={(issues.data?.items ?? []).map((i) => ({ value: Number(i.issue.id), label: `${String(i.issue.identifier)} · ${String(i.issue.bet_type ?? '')}` }))}
                data-testid="bet-issue"
              />
            </div>
            <div style={{ flex: '1 1 280px' }}>
              <Typography.Text strong style={{ display: 'block', marginBottom: 4 }}>
                {t('jackpot.bet.bettor')}
              </Typography.Text>
              <Select
                style={{ width: '100%' }}
                showSearch={{ filterOption: false, onSearch: setPhone }}
                placeholder={t('jackpot.bet.bettorPlaceholder')}
                value={bettor ? Number(bettor.id) : undefined}
                loading={found.isFetching}
                onChange={(v: number) => setBettor(bettorOptions.find((o) => o.value === v)?.row ?? null)}
                notFoundContent={phone.replace(/\D/g, '').length < 4 ? t('jackpot.bet.bettorHint') : found.isError ? t('jackpot.bet.bettorFailed') : <NoData />}
                options={bettorOptions.map(({ value, label }) => ({ value, label }))}
                data-testid="bet-bettor"
              />
            </div>
            {issue && (
              <Descriptions
                size="small"
                column={1}
                style={{ flex: '1 1 220px' }}
                items={[{ key: 'close', label: t('jackpot.issue.closesIn'), children: <Countdown to={issue.bet_close_at as string} testId="bet-countdown" /> }]}
              />
            )}
          </Flex>
        </Panel>

        {!issueId ? (
          <Alert type="info" showIcon message={issues.data && !issues.data.items.length ? t('jackpot.bet.noOpenIssue') : t('jackpot.bet.chooseIssue')} data-testid="bet-choose-issue" />
        ) : issues.isError && !issues.data ? (
          <LoadError error={issues.error} onRetry={() => void issues.refetch()} />
        ) : !open ? (
          <Skeleton active />
        ) : (
          <Flex gap={16} vertical={mobile} align="flex-start">
            <div style={{ flex: 1, minWidth: 0, width: '100%' }}>
              <PlainTable<MatchRow>
                rowKey="position"
                dataSource={matches}
                data-testid="bet-matches"
                rowClassName={(m) => (refusedAt === m.position ? 'ant-table-row-selected' : '')}
                columns={[
                  { key: 'position', title: '#', dataIndex: 'position', width: 40 },
                  { key: 'match', title: t('jackpot.match.match'), render: (_, m) => <MatchName m={m} /> },
                  ...(mobile ? [] : [{ key: 'start', title: t('jackpot.match.kickoff'), render: (_: unknown, m: MatchRow) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.start_time)}</span> }]),
                  {
                    key: 'pick',
                    title: t('jackpot.ticket.pick'),
                    render: (_, m) => <PickToggles position={m.position} mask={picks[m.position - 1] ?? 0} danger={refusedAt === m.position} onChange={(mask) => set(m.position - 1, mask)} />,
                  },
                ]}
              />
            </div>
            <div style={{ width: mobile ? '100%' : 320, position: mobile ? undefined : 'sticky', top: 80 }}>
              <Panel title={t('jackpot.bet.slip')}>
                <Descriptions
                  size="small"
                  column={1}
                  items={[
                    { key: 'lines', label: t('jackpot.field.lines'), children: <Typography.Text strong data-testid="bet-lines">{lines || '-'}</Typography.Text> },
                    { key: 'unit', label: t('jackpot.field.unit'), children: tsh(open.unit) },
                    { key: 'stake', label: t('jackpot.field.stake'), children: <Typography.Text strong data-testid="bet-stake">{q?.ok ? tsh(q.stake) : check?.ok ? tsh(check.lines * open.unit) : '-'}</Typography.Text> },
                    ...(q?.ok && q.bonus_stake ? [{ key: 'bonus', label: t('jackpot.field.bonus_stake'), children: tsh(q.bonus_stake) }] : []),
                  ]}
                />
                {open.allow_bonus && (
                  <Flex align="center" gap={8} style={{ margin: '8px 0' }}>
                    <Switch size="small" checked={useBonus} onChange={setUseBonus} data-testid="bet-use-bonus" />
                    <Typography.Text>{t('jackpot.bet.useBonus')}</Typography.Text>
                  </Flex>
                )}
                {!bettor && <Alert type="info" showIcon message={t('jackpot.bet.chooseBettor')} style={{ marginBottom: 8 }} />}
                {refusal && <Alert type="warning" showIcon message={refusal} style={{ marginBottom: 8 }} data-testid="bet-refusal" />}
                {quote.isError && <Alert type="error" showIcon message={t('jackpot.bet.quoteFailed')} style={{ marginBottom: 8 }} />}
                <Space wrap style={{ marginTop: 8 }}>
                  <Button type="primary" disabled={!bettor || !complete || !q?.ok || quote.isFetching || !can(PAGE, 'create')} onClick={() => setConfirming(true)} data-testid="bet-submit">
                    {t('jackpot.bet.submit')}
                  </Button>
                  <Button icon={<ClearOutlined />} onClick={() => setPicks(Array(MATCHES).fill(0))} disabled={picks.every((m) => !m)}>
                    {t('jackpot.bet.clear')}
                  </Button>
                </Space>
              </Panel>
            </div>
          </Flex>
        )}
      </Flex>
      <Modal
        open={confirming}
        title={t('jackpot.bet.confirmTitle')}
        onCancel={() => setConfirming(false)}
        okText={t('jackpot.bet.confirm')}
        cancelText={t('action.cancel')}
        confirmLoading={place.isPending}
        onOk={() => void place.mutateAsync(body).catch(() => undefined)}
        okButtonProps={{ 'data-testid': 'bet-confirm' } as never}
        destroyOnHidden
        data-testid="bet-confirm-dialog"
      >
        <Descriptions
          bordered
          size="small"
          column={1}
          items={[
            { key: 'issue', label: t('jackpot.bet.issue'), children: String(issue?.identifier ?? '') },
            { key: 'bettor', label: t('jackpot.bet.bettor'), children: `${String(bettor?.phone ?? '')}${bettor?.name ? ` · ${String(bettor.name)}` : ''}` },
            { key: 'lines', label: t('jackpot.field.lines'), children: <span data-testid="confirm-lines">{q?.lines ?? lines}</span> },
            { key: 'stake', label: t('jackpot.field.stake'), children: <Typography.Text strong data-testid="confirm-stake">{tsh(q?.stake)}</Typography.Text> },
          ]}
        />
        <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
          {t('jackpot.bet.confirmHint')}
        </Typography.Paragraph>
      </Modal>
    </>
  );
}
