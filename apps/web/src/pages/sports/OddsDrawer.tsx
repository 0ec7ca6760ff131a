import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { Badge, Card, Checkbox, Drawer, Empty, Flex, Skeleton, Space, Tag, Tooltip, Typography, theme as antdTheme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { matchListResource, type BulkAnswer } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useIsMobile } from '../../kit/dialog';
import { useSocketHandler } from '../../kit/live';
import { ActionButton, Blank, BulkBar, FieldValue, formatDateTime, LoadError, RecordView, useApiMutation, useBulkRun, type BulkRow, type FieldView, type Row } from '../../resources';
import { useAccess } from '../../kit/access';
import { EventUrn, matchPath, PAGE, RecoverMatchButton } from './MatchActions';
import { useMarketNames } from '../../kit/marketNames';

/** GET /sports/matches/:event_id/odds (apps/server/src/modules/feed/routes.ts). */
export interface OddsSelection {
  id: string;
  /** The provider's outcome id. */
  name: string;
  /** Its readable name (home / draw / away, over / under a line...). */
  label?: string;
  outcome: number;
  visible: boolean;
  suspended: boolean;
  /** The operator's own suspension of the selection (what suspend / resume toggles). */
  suspended_by_operator?: boolean;
  bet_status: number;
  outcome_status: number;
  price: number | null;
  original_price: number | null;
  updated_at: string;
}

export interface OddsMarket {
  key: string;
  type_id: number;
  type_name: string;
  specifiers: string;
  is_over_under: boolean;
  type_flag: number;
  status: number;
  suspended: boolean;
  suspended_by: { operator: boolean; bet_stop: boolean; producer: boolean };
  count: number;
  selections: OddsSelection[];
}

export interface OddsAnswer {
  event_id: string;
  home_team: string;
  away_team: string;
  event_status: number;
  markets: OddsMarket[];
}

/** Push type of "these events changed" (content `{ event_ids }`), sent by the server's feed live push. */
export const PUSH_ODDS = 20;
/**
 * The odds view refetches when the socket names its event; it also polls this often while open, in case
 * the socket is down.
 */
export const ODDS_REFRESH_MS = 5_000;
/** How long a changed price stays highlighted. */
const FLASH_MS = 1_500;

type Direction = 'up' | 'down';

const HEADER_KEYS = ['event_id', 'league_name', 'start_time', 'event_status', 'match_status', 'is_suspended'];
const headerFields: FieldView[] = matchListResource.fields
  .filter((f) => HEADER_KEYS.includes(f.key))
  .map((f) => (f.key === 'event_id' ? { ...f, render: (value: unknown) => <EventUrn value={value} /> } : f));
const typeFlagField: FieldView = { key: 'type_flag', type: 'enum', enum: 'type_flag' };
const outcomeField: FieldView = { key: 'outcome', type: 'enum', enum: 'selection_outcome' };
const outcomeStatusField: FieldView = { key: 'outcome_status', type: 'enum', enum: 'outcome_status' };

const formatPrice = (p: number | null) => (p === null || p === undefined ? null : Number(p).toFixed(2));

/**
 * Which prices moved since the previous answer (up or down); each stays marked for FLASH_MS. The first
 * answer marks nothing.
 */
function usePriceChanges(data: OddsAnswer | undefined): Record<string, Direction> {
  const previous = useRef<Map<string, number> | null>(null);
  const [changes, setChanges] = useState<Record<string, Direction>>({});
  useEffect(() => {
    if (!data) return;
    const next = new Map<string, number>();
    const changed: Record<string, Direction> = {};
    for (const m of data.markets)
      for (const s of m.selections) {
        if (s.price === null || s.price === undefined) continue;
        next.set(s.id, s.price);
        const old = previous.current?.get(s.id);
        if (old !== undefined && old !== s.price) changed[s.id] = s.price > old ? 'up' : 'down';
      }
    previous.current = next;
    if (!Object.keys(changed).length) return;
    setChanges((c) => ({ ...c, ...changed }));
    // Not cleared on the next answer: a mark fades after its own time even when prices keep moving.
    setTimeout(
      () =>
        setChanges((c) => {
          const rest = { ...c };
          for (const [id, dir] of Object.entries(changed)) if (rest[id] === dir) delete rest[id];
          return rest;
        }),
      FLASH_MS,
    );
  }, [data]);
  return changes;
}

const FLASH_STYLE: Record<Direction, React.CSSProperties> = {
  up: { background: 'rgba(82, 196, 26, 0.25)', color: '#237804' },
  down: { background: 'rgba(255, 77, 79, 0.2)', color: '#a8071a' },
};

function Price({ market, selection, change }: { market: OddsMarket; selection: OddsSelection; change?: Direction }) {
  const shown = formatPrice(selection.price);
  return (
    <span
      data-testid={`odds-price-${market.key}-${selection.name}`}
      data-change={change}
      style={{ fontWeight: 600, padding: '2px 6px', borderRadius: 4, transition: 'background-color .4s, color .4s', whiteSpace: 'nowrap', ...(change ? FLASH_STYLE[change] : {}) }}
    >
      {shown ?? '-'}
      {change && <span aria-hidden> {change === 'up' ? '▲' : '▼'}</span>}
    </span>
  );
}

/** Suspend / resume by the operator of a market, or of one selection of it (POST .../suspension). */
function useSuspension(eventId: string, refetch: () => unknown) {
  return useApiMutation(
    ({ market, outcome, suspend }: { market: string; outcome?: string; suspend: boolean }) =>
      api.post<unknown>(
        `${matchPath(eventId)}/markets/${encodeURIComponent(market)}${outcome === undefined ? '' : `/outcomes/${encodeURIComponent(outcome)}`}/suspension`,
        { is_suspended: suspend },
      ),
    { onSuccess: () => void refetch() },
  );
}

type Suspend = (v: { market: string; outcome?: string; suspend: boolean }) => Promise<unknown>;

/** Suspend / resume by the operator; `compact`: only the icon (a selection's row), the label in a tooltip. */
function SuspendButton({ suspended, testId, compact, onClick }: { suspended: boolean; testId: string; compact?: boolean; onClick(): Promise<unknown> }) {
  const { t } = useTranslation();
  return (
    <ActionButton
      action="suspend"
      page={PAGE}
      size="small"
      type={compact ? 'text' : 'default'}
      compact={compact}
      danger={!suspended}
      icon={suspended ? <PlayCircleOutlined /> : <PauseCircleOutlined />}
      testId={testId}
      onClick={onClick}
    >
      {t(suspended ? 'sports.odds.resume' : 'sports.odds.suspend')}
    </ActionButton>
  );
}

interface SelectionColumn {
  key: string;
  title: string;
  render(s: OddsSelection): React.ReactNode;
}

/**
 * A market's selections as a plain table in the console's colours: an odds change re-prices every
 * market of a match at once, and fifty antd Tables took most of the time from the feed to the screen.
 */
function SelectionTable({ rows, columns }: { rows: OddsSelection[]; columns: SelectionColumn[] }) {
  const { token } = antdTheme.useToken();
  const cell: React.CSSProperties = { padding: '6px 8px', borderBottom: `1px solid ${token.colorBorderSecondary}`, textAlign: 'left', whiteSpace: 'nowrap' };
  return (
    <div style={{ overflowX: 'auto' }}>
      <table style={{ width: '100%', borderCollapse: 'collapse', fontSize: token.fontSizeSM + 1, color: token.colorText }}>
        <thead>
          <tr style={{ background: token.colorFillAlter }}>
            {columns.map((c) => (
              <th key={c.key} style={{ ...cell, fontWeight: 600 }}>
                {c.title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.id} data-row-key={s.id}>
              {columns.map((c) => (
                <td key={c.key} style={cell}>
                  {c.render(s)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

interface MarketCardProps {
  market: OddsMarket;
  changes: Record<string, Direction>;
  suspend: Suspend;
  /** Bulk (issue 29): whether the market is selected; absent: no selection offered (no suspend button). */
  checked?: boolean;
  onCheck?: (key: string, on: boolean) => void;
}

/**
 * Re-render a market only when it changed: the query keeps unchanged markets as the same objects
 * (structural sharing), so a price move re-renders the cards whose prices moved.
 */
const sameCard = (a: MarketCardProps, b: MarketCardProps) =>
  a.market === b.market && a.suspend === b.suspend && a.checked === b.checked && a.onCheck === b.onCheck && a.market.selections.every((s) => a.changes[s.id] === b.changes[s.id]);

const MarketCard = memo(function MarketCard({ market, changes, suspend, checked, onCheck }: MarketCardProps) {
  const { t } = useTranslation();
  const names = useMarketNames();
  const reasons = [
    market.suspended_by?.operator && t('sports.odds.byOperator'),
    market.suspended_by?.bet_stop && t('sports.odds.byBetStop'),
    market.suspended_by?.producer && t('sports.odds.byProducer'),
  ].filter(Boolean);
  return (
    <Card
      size="small"
      data-testid={`odds-market-${market.key}`}
      title={
        <Space size={8} wrap>
          {onCheck && (
            <Checkbox
              checked={checked}
              onChange={(e) => onCheck(market.key, e.target.checked)}
              aria-label={t('sports.odds.selectMarket')}
              data-testid={`odds-market-select-${market.key}`}
            />
          )}
          <span>{names.market(market.type_id, market.type_name)}</span>
          {market.specifiers && <Typography.Text code>{market.specifiers}</Typography.Text>}
        </Space>
      }
      extra={
        <Space size={4} wrap>
          {market.is_over_under && <Tag color="purple">{t('sports.odds.overUnder')}</Tag>}
          <FieldValue field={typeFlagField} value={market.type_flag} />
          {market.suspended ? (
            <Tooltip title={reasons.join(', ') || undefined}>
              <Tag color="red" data-testid={`odds-market-suspended-${market.key}`}>{t('sports.odds.suspended')}</Tag>
            </Tooltip>
          ) : (
            <Tag color="green">{t('sports.odds.open')}</Tag>
          )}
          <Typography.Text type="secondary">{t('sports.odds.selections', { count: market.count })}</Typography.Text>
          <SuspendButton
            suspended={!!market.suspended_by?.operator}
            testId={`odds-market-${market.suspended_by?.operator ? 'resume' : 'suspend'}-${market.key}`}
            onClick={() => suspend({ market: market.key, suspend: !market.suspended_by?.operator })}
          />
        </Space>
      }
      styles={{ body: { padding: 0 } }}
    >
      <SelectionTable
        rows={market.selections}
        columns={[
          {
            key: 'name',
            title: t('sports.odds.selection'),
            render: (s) => {
              const label = names.selection(s.name, s.label || s.name, market.specifiers);
              return label !== s.name ? <Tooltip title={s.name}>{label}</Tooltip> : s.name;
            },
          },
          { key: 'price', title: t('sports.odds.price'), render: (s) => <Price market={market} selection={s} change={changes[s.id]} /> },
          {
            key: 'original',
            title: t('sports.odds.originalPrice'),
            render: (s) => (formatPrice(s.original_price) === null ? <Blank /> : <Typography.Text type="secondary">{formatPrice(s.original_price)}</Typography.Text>),
          },
          {
            key: 'status',
            title: t('sports.odds.status'),
            render: (s) => (
              <Space size={4}>
                {s.suspended ? <Tag color="red">{t('sports.odds.suspended')}</Tag> : <Tag color="green">{t('sports.odds.open')}</Tag>}
                {!s.visible && <Tag>{t('sports.odds.hidden')}</Tag>}
              </Space>
            ),
          },
          {
            key: 'action',
            title: '',
            render: (s) => (
              <SuspendButton
                compact
                suspended={!!s.suspended_by_operator}
                testId={`odds-selection-${s.suspended_by_operator ? 'resume' : 'suspend'}-${market.key}-${s.name}`}
                onClick={() => suspend({ market: market.key, outcome: s.name, suspend: !s.suspended_by_operator })}
              />
            ),
          },
          { key: 'outcome', title: t('sports.odds.result'), render: (s) => <FieldValue field={outcomeField} value={s.outcome} /> },
          { key: 'outcome_status', title: t('sports.odds.outcomeStatus'), render: (s) => <FieldValue field={outcomeStatusField} value={s.outcome_status} /> },
          { key: 'updated_at', title: t('sports.odds.updated'), render: (s) => <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(s.updated_at)}</Typography.Text> },
        ]}
      />
    </Card>
  );
}, sameCard);

/**
 * Bulk suspension of a match's markets (issue 29): a box on each market, select all, and the bar to
 * suspend or resume the selected ones (POST .../markets/suspension, each market as its own control), with
 * each market's outcome. Offered with the suspend button only.
 */
function useMarketBulk(eventId: string, markets: OddsMarket[], refetch: () => unknown) {
  const { t } = useTranslation();
  const names = useMarketNames();
  const { can } = useAccess();
  const { run, modal } = useBulkRun();
  const [picked, setPicked] = useState<ReadonlySet<string>>(new Set());
  const onCheck = useCallback(
    (key: string, on: boolean) =>
      setPicked((p) => {
        const next = new Set(p);
        if (on) next.add(key);
        else next.delete(key);
        return next;
      }),
    [],
  );
  // Only markets the match still has count (the feed may drop one while it is selected).
  const selected = new Set(markets.filter((m) => picked.has(m.key)).map((m) => m.key));
  const rows: BulkRow[] = markets
    .filter((m) => selected.has(m.key))
    .map((m) => ({ id: m.key, label: `${names.market(m.type_id, m.type_name)}${m.specifiers ? ` (${m.specifiers})` : ''}` }));
  const act = (suspend: boolean) =>
    run({
      title: t(suspend ? 'sports.odds.suspendedTitle' : 'sports.odds.resumedTitle'),
      rows,
      call: (keys) => api.post<BulkAnswer>(`${matchPath(eventId)}/markets/suspension`, { keys, is_suspended: suspend }),
    }).then(() => {
      setPicked(new Set());
      void refetch();
    });
  if (!can(PAGE, 'suspend')) return { selected: new Set<string>(), onCheck: undefined, bar: null, modal: null };
  const all = markets.length > 0 && selected.size === markets.length;
  const bar = (
    <Flex wrap gap={8} align="center" data-testid="odds-bulk">
      <Checkbox
        checked={all}
        indeterminate={selected.size > 0 && !all}
        onChange={(e) => setPicked(e.target.checked ? new Set(markets.map((m) => m.key)) : new Set())}
        data-testid="odds-select-all"
      >
        {t('sports.odds.selectAll')}
      </Checkbox>
      <BulkBar rows={rows} onClear={() => setPicked(new Set())}>
        <ActionButton
          action="suspend"
          page={PAGE}
          size="small"
          danger
          icon={<PauseCircleOutlined />}
          testId="odds-bulk-suspend"
          confirm={t('sports.odds.confirmSuspendSelected', { count: rows.length })}
          onClick={() => act(true)}
        >
          {t('sports.odds.suspendSelected')}
        </ActionButton>
        <ActionButton
          action="suspend"
          page={PAGE}
          size="small"
          icon={<PlayCircleOutlined />}
          testId="odds-bulk-resume"
          confirm={t('sports.odds.confirmResumeSelected', { count: rows.length })}
          onClick={() => act(false)}
        >
          {t('sports.odds.resumeSelected')}
        </ActionButton>
      </BulkBar>
    </Flex>
  );
  return { selected, onCheck, bar, modal };
}

function OddsView({ match, open }: { match: Row; open: boolean }) {
  const { t } = useTranslation();
  const eventId = String(match.event_id);
  const q = useQuery({
    // Under the list's name: an operator action on the match refreshes its odds too.
    queryKey: ['match_list', 'odds', eventId],
    queryFn: () => api.get<OddsAnswer>(`/sports/matches/${encodeURIComponent(eventId)}/odds`),
    enabled: open,
    // Live only while the drawer is open; nothing is asked once it closes.
    refetchInterval: open ? ODDS_REFRESH_MS : false,
    refetchIntervalInBackground: false,
  });
  // The server names the events the feed has just changed: refetch at once when it is this one.
  useSocketHandler((m) => {
    if (!open || m.type !== PUSH_ODDS) return;
    const ids = (m.content as { event_ids?: unknown } | undefined)?.event_ids;
    if (Array.isArray(ids) && ids.includes(eventId)) void q.refetch();
  });
  const suspension = useSuspension(eventId, q.refetch);
  const changes = usePriceChanges(q.data);
  const bulk = useMarketBulk(eventId, q.data?.markets ?? [], q.refetch);
  const header: Row = { ...match, ...(q.data ? { event_status: q.data.event_status } : {}) };
  return (
    <Flex vertical gap={12}>
      <RecordView fields={headerFields} record={header} column={2} />
      <Badge status={q.isError ? 'error' : 'processing'} text={<Typography.Text type="secondary">{t('sports.odds.live')}</Typography.Text>} />
      {q.isPending ? (
        <Skeleton active />
      ) : q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : !q.data?.markets.length ? (
        <Empty description={t('sports.odds.noMarkets')} />
      ) : (
        <>
          {bulk.bar}
          {q.data.markets.map((m) => (
            <MarketCard key={m.key} market={m} changes={changes} suspend={suspension.mutateAsync} checked={bulk.selected.has(m.key)} onCheck={bulk.onCheck} />
          ))}
        </>
      )}
      {bulk.modal}
    </Flex>
  );
}

/** A match's markets and prices, refreshed on the live push (and every 5 s) while open; a moved price flashes green (up) or red (down). */
export function OddsDrawer({ match, onClose }: { match: Row | null; onClose(): void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [shown, setShown] = useState<Row | null>(match);
  // Keep the last match while the drawer slides out, so its title does not go blank.
  useEffect(() => {
    if (match) setShown(match);
  }, [match]);
  const subject = match ?? shown;
  return (
    <Drawer
      open={!!match}
      onClose={onClose}
      size={mobile ? '100%' : 'large'}
      destroyOnHidden
      data-testid="odds-drawer"
      extra={subject && <RecoverMatchButton row={subject} />}
      title={subject ? t('sports.odds.title', { home: String(subject.home_team ?? ''), away: String(subject.away_team ?? '') }) : ''}
    >
      {subject && <OddsView key={String(subject.event_id)} match={subject} open={!!match} />}
    </Drawer>
  );
}
