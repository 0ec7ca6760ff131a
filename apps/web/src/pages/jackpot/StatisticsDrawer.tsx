import { Alert, Descriptions, Drawer, Flex, Skeleton, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useIsMobile } from '../../kit/dialog';
import { LoadError, Panel, PlainTable, type Row } from '../../resources';
import { RESULT_SIGNS, useIssue, useTsh } from './shared';

/** GET /jackpot/issues/:id/statistics (a non-super admin counts only their branch's tickets). */
interface Statistics {
  scope: 'all' | 'branch';
  tickets: number;
  bettors: number;
  lines: number;
  stakes: number;
  bonus_stakes: number;
  refunded: number;
  winning_tickets: number;
  winning_lines: number;
  tiers: { hits: number; proportion_bps: number; winning_lines: number | null }[];
  gross: number;
  tax: number;
  credited: number;
  withheld: number;
  net_income: number;
  net_profit: number;
  expenditure: number;
  pool: { total: number };
}

/** GET /jackpot/issues/:id/risk: the risk view before kick-off (domain riskView). */
interface Risk {
  tickets: number;
  lines_sold: number;
  vectors: number;
  pool: number;
  per_tier: { hits: number; max_lines: number; vectors_with_winner: number }[];
  top: { vector: number[]; lines: number[]; top_payout: number }[];
  coverage: { position: number; home: number; draw: number; away: number }[];
}

/**
 * Statistics of an issue: stakes, lines, tickets, hits per tier, net income, net profit, expenditure;
 * and the risk view: over all 3^13 outcomes, the most winning lines per tier, the ten outcomes that
 * would cost the house most, and how many lines cover each result of each match.
 */
export function StatisticsDrawer({ issue, onClose }: { issue: Row | null; onClose(): void }) {
  const { t } = useTranslation();
  const tsh = useTsh();
  const mobile = useIsMobile();
  const id = issue?.id;
  const detail = useIssue(id);
  const stats = useQuery({ queryKey: ['jackpot-statistics', id], queryFn: () => api.get<Statistics>(`/jackpot/issues/${id}/statistics`), enabled: !!issue });
  const risk = useQuery({ queryKey: ['jackpot-risk', id], queryFn: () => api.get<Risk>(`/jackpot/issues/${id}/risk`), enabled: !!issue, retry: false });
  const s = stats.data;
  const matches = detail.data?.matches ?? [];
  const tiers = risk.data?.per_tier ?? [];

  return (
    <Drawer open={!!issue} title={t('jackpot.stats.title', { identifier: String(issue?.identifier ?? '') })} size={mobile ? '100%' : 'large'} onClose={onClose} destroyOnHidden data-testid="statistics-drawer">
      <Flex vertical gap={16}>
        {stats.isError && !s ? (
          <LoadError error={stats.error} onRetry={() => void stats.refetch()} />
        ) : !s ? (
          <Skeleton active />
        ) : (
          <>
            <Descriptions
              bordered
              size="small"
              column={mobile ? 1 : 2}
              data-testid="stats-figures"
              items={[
                { key: 'stakes', label: t('jackpot.field.total_bet'), children: <span data-testid="stats-stakes">{tsh(s.stakes)}</span> },
                { key: 'lines', label: t('jackpot.field.lines'), children: s.lines },
                { key: 'tickets', label: t('jackpot.stats.ticketsBettors'), children: `${s.tickets} / ${s.bettors}` },
                { key: 'pool', label: t('jackpot.pool.total'), children: tsh(s.pool.total) },
                { key: 'winners', label: t('jackpot.settle.winners'), children: `${s.winning_tickets} / ${s.winning_lines}` },
                { key: 'refunded', label: t('jackpot.settle.refunds'), children: tsh(s.refunded) },
                { key: 'gross', label: t('jackpot.settle.gross'), children: tsh(s.gross) },
                { key: 'tax', label: t('jackpot.field.tax'), children: tsh(s.tax) },
                { key: 'income', label: t('jackpot.field.net_income'), children: tsh(s.net_income) },
                { key: 'profit', label: t('jackpot.field.net_profit'), children: tsh(s.net_profit) },
                { key: 'expenditure', label: t('jackpot.field.expenditure'), children: tsh(s.expenditure) },
              ]}
            />
            {s.scope === 'branch' && <Alert type="info" showIcon message={t('jackpot.stats.branchOnly')} />}
            {!!s.tiers.length && (
              <Table
                size="small"
                rowKey="hits"
                pagination={false}
                data-testid="stats-tiers"
                dataSource={s.tiers}
                columns={[
                  { key: 'hits', title: t('jackpot.settle.tier'), render: (_, r) => t('jackpot.tiers.hitsN', { n: r.hits }) },
                  { key: 'share', title: t('jackpot.tiers.share'), align: 'right', render: (_, r) => `${r.proportion_bps / 100} %` },
                  { key: 'lines', title: t('jackpot.settle.winningLines'), align: 'right', render: (_, r) => (r.winning_lines === null ? t('jackpot.stats.resultsPending') : r.winning_lines) },
                ]}
              />
            )}
          </>
        )}

        <Panel title={t('jackpot.risk.title')}>
          <Typography.Paragraph type="secondary">{t('jackpot.risk.hint')}</Typography.Paragraph>
          {risk.isError && !risk.data ? (
            <LoadError error={risk.error} onRetry={() => void risk.refetch()} />
          ) : !risk.data ? (
            <Skeleton active />
          ) : !risk.data.lines_sold ? (
            <Alert type="info" showIcon message={t('jackpot.risk.noTickets')} />
          ) : (
            <Flex vertical gap={16} data-testid="risk-view">
              <Table
                size="small"
                rowKey="hits"
                pagination={false}
                dataSource={tiers}
                data-testid="risk-tiers"
                columns={[
                  { key: 'hits', title: t('jackpot.settle.tier'), render: (_, r) => t('jackpot.tiers.hitsN', { n: r.hits }) },
                  { key: 'max', title: t('jackpot.risk.maxLines'), align: 'right', dataIndex: 'max_lines' },
                  { key: 'vectors', title: t('jackpot.risk.vectorsWithWinner'), align: 'right', render: (_, r) => `${r.vectors_with_winner.toLocaleString()} / ${risk.data!.vectors.toLocaleString()}` },
                ]}
              />
              <div>
                <Typography.Title level={5}>{t('jackpot.risk.top')}</Typography.Title>
                <PlainTable
                  rowKey={(_, i) => String(i)}
                  dataSource={risk.data.top}
                  data-testid="risk-top"
                  columns={[
                    { key: 'rank', title: '#', width: 40, render: (_, __, i) => i + 1 },
                    {
                      key: 'vector',
                      title: t('jackpot.risk.outcome'),
                      render: (_, r) => (
                        <Flex gap={2}>
                          {r.vector.map((v, i) => (
                            <Tag key={i} style={{ margin: 0, minWidth: 22, textAlign: 'center', paddingInline: 4 }}>
                              {RESULT_SIGNS[v] ?? '?'}
                            </Tag>
                          ))}
                        </Flex>
                      ),
                    },
                    { key: 'lines', title: t('jackpot.risk.linesPerTier'), render: (_, r) => r.lines.map((n, i) => `${tiers[i]?.hits ?? '?'}: ${n}`).join(' · ') },
                    { key: 'payout', title: t('jackpot.risk.topPayout'), align: 'right', render: (_, r) => tsh(r.top_payout) },
                  ]}
                />
              </div>
              <div>
                <Typography.Title level={5}>{t('jackpot.risk.coverage')}</Typography.Title>
                <PlainTable
                  rowKey="position"
                  dataSource={risk.data.coverage}
                  data-testid="risk-coverage"
                  columns={[
                    { key: 'pos', title: '#', width: 40, dataIndex: 'position' },
                    {
                      key: 'match',
                      title: t('jackpot.match.match'),
                      render: (_, r) => {
                        const m = matches.find((x) => x.position === r.position);
                        return m ? `${m.home_team} – ${m.away_team}` : '-';
                      },
                    },
                    { key: 'home', title: '1', align: 'right', dataIndex: 'home' },
                    { key: 'draw', title: 'X', align: 'right', dataIndex: 'draw' },
                    { key: 'away', title: '2', align: 'right', dataIndex: 'away' },
                  ]}
                />
              </div>
            </Flex>
          )}
        </Panel>
      </Flex>
    </Drawer>
  );
}
