import { useEffect, useRef, useState } from 'react';
import { Badge, Empty, Skeleton, Space, Tag, Typography, theme } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useSocketHandler } from '../../kit/live';
import { formatDateTime, LoadError, Panel, type Row } from '../../resources';
import { useMarketNames } from '../../kit/marketNames';
import { EnumTag, orderHref, useTsh } from './shared';

/** GET /betting/ticker (apps/server/src/modules/betting/routes.ts). */
interface TickerOrder extends Row {
  id: number;
  order_no: string;
  phone: string;
  type: number;
  amount_payable: number;
  potential_payout: number;
  total_price: string;
  create_time: string;
  /** The names are the server's (English); the provider's ids name the known markets in the operator's language (useMarketNames). */
  legs: { match: string; market: string; selection: string; odds: string; market_type_id: number; selection_id: string; specifiers: string }[];
}

/** The socket push that says new orders arrived (PUSH.orders on the server). */
export const ORDERS_PUSH_TYPE = 21;
/** Fallback refresh when the socket is down. */
const REFRESH_MS = 15_000;
/** How long a new order stays marked. */
const FRESH_MS = 4_000;
/** Stakes at or above this (cents) are flagged for whoever watches risk. */
export const BIG_STAKE = 100_000_00;

/**
 * The live bet ticker (issue 5): the newest orders of my branch as they arrive — refetched when the
 * server pushes that orders were placed, new rows marked for a few seconds, large stakes flagged.
 */
export function BetTicker({ limit = 15 }: { limit?: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const tsh = useTsh();
  const names = useMarketNames();
  const q = useQuery({
    queryKey: ['bet-ticker', limit],
    queryFn: () => api.get<{ items: TickerOrder[] }>('/betting/ticker', { limit }),
    refetchInterval: REFRESH_MS,
  });
  useSocketHandler((m) => {
    if (m.type === ORDERS_PUSH_TYPE) void q.refetch();
  });
  const seen = useRef<Set<number> | null>(null);
  const [fresh, setFresh] = useState<Set<number>>(new Set());
  useEffect(() => {
    if (!q.data) return;
    const ids = q.data.items.map((o) => o.id);
    const added = seen.current ? ids.filter((id) => !seen.current!.has(id)) : [];
    seen.current = new Set(ids);
    if (!added.length) return;
    setFresh((f) => new Set([...f, ...added]));
    const timer = setTimeout(() => setFresh((f) => new Set([...f].filter((id) => !added.includes(id)))), FRESH_MS);
    return () => clearTimeout(timer);
  }, [q.data]);

  return (
    <Panel
      testId="bet-ticker"
      title={
        <Space size={8}>
          <Badge status={q.isError ? 'error' : 'processing'} />
          {t('betting.ticker.title')}
        </Space>
      }
      bodyStyle={{ padding: 0, maxHeight: 420, overflowY: 'auto' }}
    >
      {q.isPending ? (
        <div style={{ padding: 12 }}>
          <Skeleton active />
        </div>
      ) : q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : !q.data?.items.length ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('betting.ticker.empty')} />
      ) : (
        // A plain list (antd's List brings its pagination, and with it a select, to the landing page).
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {q.data.items.map((o, i) => (
            <li
              key={o.id}
              data-testid={`ticker-order-${o.id}`}
              style={{
                padding: '8px 12px',
                borderBlockStart: i ? `1px solid ${token.colorSplit}` : undefined,
                transition: 'background-color .6s',
                background: fresh.has(o.id) ? 'rgba(245, 202, 71, 0.18)' : undefined,
              }}
            >
              <Space direction="vertical" size={2} style={{ width: '100%' }}>
                <Space size={8} wrap style={{ justifyContent: 'space-between', width: '100%' }}>
                  <Typography.Link href={orderHref(o.id)}>{o.order_no}</Typography.Link>
                  <Space size={4}>
                    <EnumTag name="order_type" value={o.type} />
                    {o.amount_payable >= BIG_STAKE && <Tag color="red">{t('betting.ticker.big')}</Tag>}
                  </Space>
                </Space>
                <Typography.Text>
                  {tsh(o.amount_payable)} @ {Number(o.total_price).toFixed(2)} · {t('betting.ticker.toWin', { amount: tsh(o.potential_payout) })}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {o.legs.length === 1
                    ? `${o.legs[0].match} · ${names.market(o.legs[0].market_type_id, o.legs[0].market)}: ${names.selection(o.legs[0].selection_id, o.legs[0].selection, o.legs[0].specifiers)}`
                    : t('betting.ticker.legs', { count: o.legs.length, first: o.legs[0]?.match ?? '' })}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {o.phone} · {formatDateTime(o.create_time)}
                </Typography.Text>
              </Space>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
