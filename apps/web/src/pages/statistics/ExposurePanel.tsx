import { lazy, Suspense, useEffect, useRef, useState, type CSSProperties } from 'react';
import { Badge, Button, Flex, Skeleton, Tooltip, Typography, theme } from 'antd';
import { InfoCircleOutlined, WarningFilled } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useAccess } from '../../kit/access';
import { useSocketHandler } from '../../kit/live';
import { typeOfMarketKey, useMarketNames } from '../../kit/marketNames';
import { loadTexts } from '../../locales';
import { formatDateTime, LoadError, NoData, Panel, type Row } from '../../resources';
import { ORDERS_PUSH_TYPE } from '../betting/BetTicker';
import { useCount, useMoney } from './shared';
import type { Exposure, ExposureMarket, ExposureOutcome } from '@dau/contract/ui';

/** GET /statistics/exposure. */
type ExposureAnswer = Exposure;

type State = 'all' | 'live' | 'upcoming';
const STATES: State[] = ['all', 'live', 'upcoming'];
/** Fallback refresh (settlements, the socket down); orders arriving refetch at once, at most every THROTTLE_MS. */
const REFRESH_MS = 15_000;
const THROTTLE_MS = 2_000;
const VISUALLY_HIDDEN: CSSProperties = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' };

// The match's odds open here, in the match list's own drawer: fetched (with the sports texts) on the first click only.
const OddsDrawer = lazy(() => Promise.all([import('../sports/OddsDrawer'), loadTexts('sports')]).then(([m]) => ({ default: m.OddsDrawer })));

/** Calls `fn` at once, then at most once per `ms` (a call inside the window runs at its end). */
function useThrottled(fn: () => void, ms: number) {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(fn);
  latest.current = fn;
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  return () => {
    if (timer.current) return;
    const wait = last.current + ms - Date.now();
    const run = () => {
      timer.current = null;
      last.current = Date.now();
      latest.current();
    };
    if (wait <= 0) run();
    else timer.current = setTimeout(run, wait);
  };
}

/**
 * Live exposure (issue 29): per live and upcoming match and market, what the open orders of my branch pay
 * on each outcome if it wins, the worst outcome marked, riskiest market first (the book's net loss if the
 * worst outcome wins). Refetched when the server pushes that orders were placed (throttled) and every 15 s.
 * One click opens the match's odds (the match list's drawer) or its open orders (the order list).
 */
export function ExposurePanel() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { can, hasScreen } = useAccess();
  const money = useMoney();
  const count = useCount();
  const names = useMarketNames();
  const [state, setState] = useState<State>('all');
  const [odds, setOdds] = useState<Row | null>(null);
  // The drawer stays mounted once opened, so that it slides out when closed.
  const [drawer, setDrawer] = useState(false);
  const q = useQuery({
    queryKey: ['today_statistics', 'exposure', state],
    queryFn: () => api.get<ExposureAnswer>('/statistics/exposure', { state }),
    refetchInterval: REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const refetch = useThrottled(() => void q.refetch(), THROTTLE_MS);
  useSocketHandler((m) => {
    if (m.type === ORDERS_PUSH_TYPE) refetch();
  });
  const canOdds = hasScreen('match_list') && can('match_list');
  const canOrders = hasScreen('order_list') && can('order_list');
  const d = q.data;
  const cell: CSSProperties = { padding: '8px 12px', borderBlockStart: `1px solid ${token.colorSplit}`, verticalAlign: 'top', textAlign: 'start' };
  const head: CSSProperties = { ...cell, borderBlockStart: 'none', fontWeight: 600, color: token.colorTextSecondary, fontSize: 12, whiteSpace: 'nowrap' };

  return (
    <Panel
      testId="exposure"
      title={
        <Flex gap={8} wrap align="center" justify="space-between" style={{ width: '100%' }}>
          <span>
            <Badge status={q.isError ? 'error' : 'processing'} />
            <span style={{ marginInlineStart: 8 }}>{t('statistics.exposure.title')}</span>
            <Tooltip title={t('statistics.exposure.hint')}>
              <InfoCircleOutlined aria-label={t('statistics.exposure.hint')} style={{ marginInlineStart: 6, color: token.colorTextTertiary }} />
            </Tooltip>
          </span>
          <Flex gap={4} role="group" aria-label={t('statistics.exposure.filter')}>
            {STATES.map((s) => (
              <Button key={s} size="small" type={state === s ? 'primary' : 'default'} aria-pressed={state === s} onClick={() => setState(s)} data-testid={`exposure-filter-${s}`}>
                {s === 'live' ? t('statistics.exposure.state.live') : s === 'upcoming' ? t('statistics.exposure.state.upcoming') : t('statistics.exposure.state.all')}
              </Button>
            ))}
          </Flex>
        </Flex>
      }
      bodyStyle={{ padding: 0 }}
    >
      {q.isPending ? (
        <div style={{ padding: 12 }}>
          <Skeleton active />
        </div>
      ) : q.isError && !d ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : !d?.items.length ? (
        <div data-testid="exposure-empty">
          <NoData />
          <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginBottom: 16 }}>
            {t('statistics.exposure.empty')}
          </Typography.Paragraph>
        </div>
      ) : (
        <>
          <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '8px 12px 0' }} data-testid="exposure-summary">
            {t('statistics.exposure.summary', { markets: count(d.markets), matches: count(d.matches), shown: count(d.items.length) })}
          </Typography.Paragraph>
          {/* A plain table (antd's Table is not on the landing page: its bytes are counted); it scrolls sideways on a phone. */}
          <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={t('statistics.exposure.title')}>
            <table style={{ width: '100%', borderCollapse: 'collapse', minWidth: 720 }}>
              <thead>
                <tr>
                  {/* The match keeps room for two team names (long column titles in Swahili squeezed it). */}
                  <th scope="col" style={{ ...head, minWidth: 180 }}>{t('statistics.exposure.match')}</th>
                  <th scope="col" style={head}>{t('statistics.exposure.market')}</th>
                  <th scope="col" style={head}>{t('statistics.exposure.outcomes')}</th>
                  <th scope="col" style={{ ...head, textAlign: 'end' }}>{t('statistics.exposure.stakes')}</th>
                  <th scope="col" style={{ ...head, textAlign: 'end' }}>{t('statistics.exposure.netLoss')}</th>
                  <th scope="col" style={head}>
                    <span style={VISUALLY_HIDDEN}>{t('statistics.exposure.open')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {d.items.map((m) => {
                  const specifiers = m.market_key.slice(m.market_key.indexOf('|') + 1);
                  const match = `${m.home_team} – ${m.away_team}`;
                  return (
                    <tr key={`${m.event_id}|${m.market_key}`} data-testid={`exposure-row-${m.event_id}-${m.market_key}`}>
                      <td style={cell}>
                        <Typography.Text strong>{match}</Typography.Text>
                        <div style={{ fontSize: 12 }}>
                          {m.live ? <Badge status="processing" text={<Typography.Text style={{ fontSize: 12 }}>{t('statistics.exposure.live')}</Typography.Text>} /> : <Typography.Text type="secondary" style={{ fontSize: 12 }}>{formatDateTime(m.start_time)}</Typography.Text>}
                          {m.league_name && <Typography.Text type="secondary" style={{ fontSize: 12 }}> · {m.league_name}</Typography.Text>}
                        </div>
                      </td>
                      <td style={cell}>{names.market(typeOfMarketKey(m.market_key), m.market_name || m.market_key)}</td>
                      <td style={cell}>
                        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                          {m.outcomes.map((o) => (
                            <li
                              key={o.outcome_id}
                              data-testid={`exposure-outcome-${o.outcome_id}`}
                              data-worst={o.worst || undefined}
                              style={{ padding: '1px 4px', borderRadius: token.borderRadiusSM, background: o.worst ? token.colorErrorBg : undefined, fontWeight: o.worst ? 600 : undefined }}
                            >
                              {o.worst && <WarningFilled aria-hidden style={{ color: token.colorErrorText, marginInlineEnd: 4 }} />}
                              {o.worst && <span style={VISUALLY_HIDDEN}>{t('statistics.exposure.worst')}: </span>}
                              <span>{names.selection(o.outcome_id, o.selection_name || o.outcome_id, specifiers)}</span>
                              {': '}
                              <span data-testid="exposure-payout">{money(o.payout)}</span>
                              <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 400 }}>
                                {' · '}
                                {t('statistics.exposure.orders', { count: o.orders, n: count(o.orders) })}
                              </Typography.Text>
                            </li>
                          ))}
                        </ul>
                      </td>
                      <td style={{ ...cell, textAlign: 'end', whiteSpace: 'nowrap' }}>{money(m.stakes)}</td>
                      <td style={{ ...cell, textAlign: 'end', whiteSpace: 'nowrap' }} data-testid="exposure-net-loss">
                        <Typography.Text strong style={{ color: m.net_loss > 0 ? token.colorErrorText : undefined }}>
                          {money(m.net_loss)}
                        </Typography.Text>
                      </td>
                      <td style={{ ...cell, whiteSpace: 'nowrap' }}>
                        <Flex gap={4} vertical>
                          {canOdds && (
                            <Button
                              size="small"
                              type="link"
                              style={{ padding: 0, height: 'auto' }}
                              data-testid="exposure-odds"
                              aria-label={`${t('statistics.exposure.odds')}: ${match}`}
                              onClick={() => {
                                setDrawer(true);
                                setOdds({ event_id: m.event_id, home_team: m.home_team, away_team: m.away_team, league_name: m.league_name, start_time: m.start_time, match_status: m.match_status, sport_id: m.sport_id });
                              }}
                            >
                              {t('statistics.exposure.odds')}
                            </Button>
                          )}
                          {canOrders && (
                            <Typography.Link
                              href={`#/customer/order_list?event_id=${encodeURIComponent(m.event_id)}&status=2`}
                              data-testid="exposure-orders"
                              aria-label={`${t('statistics.exposure.ordersLink')}: ${match}`}
                            >
                              {t('statistics.exposure.ordersLink')}
                            </Typography.Link>
                          )}
                        </Flex>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      )}
      {drawer && (
        <Suspense fallback={null}>
          <OddsDrawer match={odds} onClose={() => setOdds(null)} />
        </Suspense>
      )}
    </Panel>
  );
}
