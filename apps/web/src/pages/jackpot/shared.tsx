import { useEffect, useState, type ReactNode } from 'react';
import { CheckCircleFilled, CloseCircleFilled, MinusCircleOutlined } from '@ant-design/icons';
import { Alert, Flex, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { formatTsh } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import type { JackpotIssueDetail, JackpotMatchRow, JackpotTicketDetail } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { inZone } from '../../kit/timeZone';
import { useTimeZone } from '../../kit/zone';
import { areaView, enumColor, enumText, formatDateTime, LoadError, PlainTable, useLocale, type FieldView, type ResourceView, type Row } from '../../resources';

/** Matches of a jackpot issue (JACKPOT_MATCHES in the domain). */
export const MATCHES = 13;

/** A pick is a bit mask per match: 1 home ("1"), 2 draw ("X"), 4 away ("2"). */
export const PICK_BITS = [
  { bit: 1, sign: '1' },
  { bit: 2, sign: 'X' },
  { bit: 4, sign: '2' },
] as const;

/** A result: 0 home, 1 draw, 2 away, 3 cancelled (null: not known yet). */
export const RESULT_SIGNS = ['1', 'X', '2'] as const;
export const RESULT_CANCELLED = 3;

export const popcount = (mask: number) => (mask & 1) + ((mask >> 1) & 1) + ((mask >> 2) & 1);

/** Lines of a ticket: the product of the picks' counts (2^doubles x 3^triples); 0 while a match has no pick. */
export const linesOf = (picks: readonly number[]) => picks.reduce((n, m) => n * popcount(m), 1);

/** "1", "1X", "1X2"... */
export const pickSigns = (mask: number) =>
  PICK_BITS.filter((p) => mask & p.bit)
    .map((p) => p.sign)
    .join('');

/** Lists refreshed after a jackpot action. */
export const ISSUE_LISTS = [['jackpot_identifier'], ['jackpot-issue']];
export const TICKET_LISTS = [['jackpot_bet_list'], ['cs_jackpot_bet_list'], ['cs_jackpot_bet'], ['jackpot-ticket'], ['jackpot-open-issues']];

/**
 * A jackpot declaration for the console: the menu's title, the jackpot texts' description, and each field's
 * label in the jackpot texts (`jackpot.field.<key>`), with the console's hints (help lines, inputs) merged in.
 */
export function jackpotView(def: ResourceView, hints: Record<string, Partial<FieldView>> = {}, extra: Partial<ResourceView> = {}): ResourceView {
  return areaView('jackpot', def, hints, extra);
}

/** Money in shillings from cents; blank stays a dash. */
export function useTsh() {
  const locale = useLocale();
  return (cents: unknown) => (cents === null || cents === undefined || cents === '' ? '-' : formatTsh(Number(cents), locale));
}

/** An enumeration value as a coloured tag in the operator's language. */
export function EnumTag({ name, value, testId }: { name: string; value: unknown; testId?: string }) {
  const locale = useLocale();
  if (value === null || value === undefined) return <>-</>;
  return (
    <Tag color={enumColor(name, value)} data-testid={testId}>
      {enumText(name, value, locale)}
    </Tag>
  );
}

/** A match's result: "1", "X", "2", or the cancelled label; a dash while unknown. */
export function ResultMark({ result, testId }: { result: number | null | undefined; testId?: string }) {
  const locale = useLocale();
  if (result === null || result === undefined) return <Typography.Text type="secondary" data-testid={testId}>-</Typography.Text>;
  if (result === RESULT_CANCELLED)
    return (
      <Tag color="default" data-testid={testId}>
        {enumText('jackpot_result', result, locale)}
      </Tag>
    );
  return (
    <Tooltip title={enumText('jackpot_result', result, locale)}>
      <Tag color="geekblue" style={{ fontWeight: 600, minWidth: 28, textAlign: 'center' }} data-testid={testId}>
        {RESULT_SIGNS[result] ?? String(result)}
      </Tag>
    </Tooltip>
  );
}

/** The three signs of a pick, chosen ones filled (read-only). */
export function PickSigns({ mask, result }: { mask: number; result?: number | null }) {
  return (
    <Flex gap={4}>
      {PICK_BITS.map((p, i) => {
        const on = (mask & p.bit) !== 0;
        const isResult = result === i;
        return (
          <Tag
            key={p.sign}
            color={on ? (isResult ? 'green' : result !== null && result !== undefined && result !== RESULT_CANCELLED ? 'default' : 'blue') : undefined}
            bordered={on}
            style={{ minWidth: 28, textAlign: 'center', margin: 0, fontWeight: on ? 600 : 400, opacity: on ? 1 : 0.4 }}
          >
            {p.sign}
          </Tag>
        );
      })}
    </Flex>
  );
}

/** Hit (green), miss (red), or not known yet. */
export function HitMark({ hit }: { hit: boolean | null | undefined }) {
  const { t } = useTranslation();
  if (hit === null || hit === undefined)
    return (
      <Typography.Text type="secondary">
        <MinusCircleOutlined /> {t('jackpot.ticket.unknown')}
      </Typography.Text>
    );
  return hit ? (
    <Typography.Text type="success" data-testid="hit">
      <CheckCircleFilled /> {t('jackpot.ticket.hit')}
    </Typography.Text>
  ) : (
    <Typography.Text type="danger" data-testid="miss">
      <CloseCircleFilled /> {t('jackpot.ticket.miss')}
    </Typography.Text>
  );
}

type TicketMatch = JackpotTicketDetail['matches'][number];
type IssueMatch = JackpotIssueDetail['matches'][number];
/**
 * A match of an issue, a ticket or a shared slip: a ticket's and a slip's carry the pick (a ticket's the hit
 * too), an issue detail's the kick-off (the feed's when it moved) and whether the match has started (issue 23).
 */
export type MatchRow = JackpotMatchRow & Partial<Pick<TicketMatch, 'pick' | 'hit'> & Pick<IssueMatch, 'kick_off' | 'started'>>;

/** "Home v Away" with the league under it. */
export function MatchName({ m }: { m: Pick<MatchRow, 'home_team' | 'away_team' | 'league_name'> }) {
  return (
    <div>
      <Typography.Text strong>
        {m.home_team} – {m.away_team}
      </Typography.Text>
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
        {m.league_name}
      </Typography.Text>
    </div>
  );
}

/** A ticket's 13 matches: its pick, the result and hit / miss; or (no picks) an issue's matches and results. */
export function MatchesTable({ matches, testId, extraColumn }: { matches: readonly MatchRow[]; testId?: string; extraColumn?: { title: ReactNode; render(m: MatchRow): ReactNode } }) {
  const { t } = useTranslation();
  const withPicks = matches.some((m) => m.pick !== undefined);
  return (
    <PlainTable<MatchRow>
      rowKey="position"
      data-testid={testId}
      dataSource={[...matches]}
      columns={[
        { key: 'position', title: '#', dataIndex: 'position', width: 44 },
        { key: 'match', title: t('jackpot.match.match'), render: (_, m) => <MatchName m={m} /> },
        { key: 'start', title: t('jackpot.match.kickoff'), render: (_, m) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.start_time)}</span> },
        ...(withPicks ? [{ key: 'pick', title: t('jackpot.ticket.pick'), render: (_: unknown, m: MatchRow) => <PickSigns mask={m.pick ?? 0} result={m.result} /> }] : []),
        { key: 'result', title: t('jackpot.match.result'), render: (_, m) => <ResultMark result={m.result} testId={`match-result-${m.position}`} /> },
        ...(withPicks ? [{ key: 'hit', title: t('jackpot.ticket.hitOrMiss'), render: (_: unknown, m: MatchRow) => <HitMark hit={m.hit} /> }] : []),
        ...(extraColumn ? [{ key: 'extra', title: extraColumn.title, render: (_: unknown, m: MatchRow) => extraColumn.render(m) }] : []),
      ]}
    />
  );
}

/** GET /jackpot/issues/:id: the issue, its 13 matches, its pool and tiers. */
export const useIssue = (id: unknown) =>
  useQuery({ queryKey: ['jackpot-issue', id], queryFn: () => api.get<JackpotIssueDetail>(`/jackpot/issues/${id}`), enabled: id !== undefined && id !== null });

/** GET {base}/:id: a ticket with each match's pick and result (base /jackpot/tickets, or /jackpot/cs/tickets for customer service). */
export const useTicket = (base: string, id: unknown) =>
  useQuery({
    queryKey: ['jackpot-ticket', base, id],
    queryFn: () => api.get<JackpotTicketDetail>(`${base}/${encodeURIComponent(String(id))}`),
    enabled: id !== undefined && id !== null && id !== '',
    retry: false,
  });

/** A ticket's matches with its picks and the results, and how many hit. */
export function TicketMatches({ base, id }: { base: string; id: unknown }) {
  const { t } = useTranslation();
  const q = useTicket(base, id);
  if (q.isError && !q.data) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Skeleton active />;
  const hits = q.data.matches.filter((m) => m.hit).length;
  const known = q.data.matches.every((m) => m.hit !== null && m.hit !== undefined);
  return (
    <div style={{ marginTop: 16 }} data-testid="ticket-matches">
      <Flex justify="space-between" align="baseline" wrap gap={8}>
        <Typography.Title level={5}>{t('jackpot.ticket.matchesTitle', { identifier: String(q.data.issue?.identifier ?? '') })}</Typography.Title>
        {known && <Typography.Text strong data-testid="ticket-hits">{t('jackpot.ticket.hits', { n: hits })}</Typography.Text>}
      </Flex>
      {q.data.share_code && <Alert type="info" showIcon style={{ marginBottom: 8 }} message={t('jackpot.ticket.shared', { code: q.data.share_code })} />}
      <MatchesTable matches={q.data.matches} testId="ticket-match-table" />
    </div>
  );
}

/** Days, hours, minutes and seconds until `to`, ticking every second; "closed" once past. */
export function Countdown({ to, testId }: { to: string | null | undefined; testId?: string }) {
  const { t } = useTranslation();
  useTimeZone();
  const [now, setNow] = useState(() => Date.now());
  const end = to ? Date.parse(to) : NaN;
  const left = Number.isNaN(end) ? NaN : end - now;
  useEffect(() => {
    if (Number.isNaN(end) || end <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [end]);
  if (Number.isNaN(left)) return <Typography.Text type="secondary">-</Typography.Text>;
  const at = inZone(to!).format('YYYY-MM-DD HH:mm');
  if (left <= 0)
    return (
      <Tooltip title={at}>
        <Typography.Text type="secondary" data-testid={testId}>
          {t('jackpot.countdown.closed')}
        </Typography.Text>
      </Tooltip>
    );
  const s = Math.floor(left / 1000);
  const d = Math.floor(s / 86400);
  const hms = [Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');
  return (
    <Tooltip title={at}>
      <Typography.Text strong type={s < 3600 ? 'warning' : undefined} style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }} data-testid={testId}>
        {d > 0 ? t('jackpot.countdown.days', { d, hms }) : hms}
      </Typography.Text>
    </Tooltip>
  );
}
