import { Alert, Descriptions, Drawer, Flex, Skeleton, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../app/api';
import { useIsMobile } from '../../app/dialog';
import { LoadError, Panel, type Row } from '../../resources';
import { RESULT_SIGNS, useIssue, useTsh } from './shared';

/** Hits per tier of an issue (GET /jackpot/issues/:id/statistics). */
interface Statistics {
  stakes?: number;
  total_bet?: number;
  lines?: number;
  tickets?: number;
  net_income?: number;
  net_profit?: number;
  expenditure?: number;
  successful?: number;
  tiers?: { hits: number; lines?: number; winning_lines?: number; tickets?: number; prize_per_line?: number; paid?: number }[];
}

/** The risk view before kick-off (GET /jackpot/issues/:id/risk): design riskView. */
interface Risk {
  vectors: number;
  linesSold?: number;
  lines_sold?: number;
  perTier?: { hits: number; maxLines: number; vectorsWithWinner: number }[];
  per_tier?: { hits: number; max_lines: number; vectors_with_winner: number }[];
  top: { vector: number[]; lines: number[]; topPayout?: number; top_payout?: number }[];
  coverage: { home: number; draw: number; away: number }[];
}

const perTierOf = (r: Risk) => r.perTier ?? (r.per_tier ?? []).map((p) => ({ hits: p.hits, maxLines: p.max_lines, vectorsWithWinner: p.vectors_with_winner }));

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
  const row = { ...(issue ?? {}), ...(detail.data?.issue ?? {}) } as Row;
  const num = (a: unknown, b: unknown) => Number(a ?? b ?? 0);
  const matches = detail.data?.matches ?? [];
  const tiers = perTierOf(risk.data ?? ({} as Risk));

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
                { key: 'stakes', label: t('jackpot.field.total_bet'), children: tsh(num(s.stakes ?? s.total_bet, row.total_bet)) },
                { key: 'lines', label: t('jackpot.field.lines'), children: num(s.lines, row.lines) },
                { key: 'tickets', label: t('jackpot.field.tickets'), children: num(s.tickets, row.tickets) },
                { key: 'successful', label: t('jackpot.field.successful'), children: num(s.successful, row.successful) },
                { key: 'income', label: t('jackpot.field.net_income'), children: tsh(num(s.net_income, row.net_income)) },
                { key: 'profit', label: t('jackpot.field.net_profit'), children: tsh(num(s.net_profit, row.net_profit)) },
                { key: 'expenditure', label: t('jackpot.field.expenditure'), children: tsh(num(s.expenditure, row.expenditure)) },
              ]}
            />
            {!!s.tiers?.length && (
              <Table
                size="small"
                rowKey="hits"
                pagination={false}
                data-testid="stats-tiers"
                dataSource={s.tiers}
                columns={[
                  { key: 'hits', title: t('jackpot.settle.tier'), render: (_, r) => t('jackpot.tiers.hitsN', { n: r.hits }) },
                  { key: 'lines', title: t('jackpot.settle.winningLines'), align: 'right', render: (_, r) => r.winning_lines ?? r.lines ?? 0 },
                  { key: 'tickets', title: t('jackpot.settle.tickets'), align: 'right', render: (_, r) => r.tickets ?? '-' },
                  { key: 'prize', title: t('jackpot.settle.prizePerLine'), align: 'right', render: (_, r) => (r.prize_per_line === undefined ? '-' : tsh(r.prize_per_line)) },
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
          ) : !num(risk.data.linesSold, risk.data.lines_sold) ? (
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
                  { key: 'max', title: t('jackpot.risk.maxLines'), align: 'right', dataIndex: 'maxLines' },
                  { key: 'vectors', title: t('jackpot.risk.vectorsWithWinner'), align: 'right', render: (_, r) => `${r.vectorsWithWinner.toLocaleString()} / ${risk.data!.vectors.toLocaleString()}` },
                ]}
              />
              <div>
                <Typography.Title level={5}>{t('jackpot.risk.top')}</Typography.Title>
                <Table
                  size="small"
                  rowKey={(_, i) => String(i)}
                  pagination={false}
                  scroll={{ x: 'max-content' }}
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
                    { key: 'payout', title: t('jackpot.risk.topPayout'), align: 'right', render: (_, r) => tsh(r.topPayout ?? r.top_payout ?? 0) },
                  ]}
                />
              </div>
              <div>
                <Typography.Title level={5}>{t('jackpot.risk.coverage')}</Typography.Title>
                <Table
                  size="small"
                  rowKey={(_, i) => String(i)}
                  pagination={false}
                  scroll={{ x: 'max-content' }}
                  dataSource={risk.data.coverage}
                  data-testid="risk-coverage"
                  columns={[
                    { key: 'pos', title: '#', width: 40, render: (_, __, i) => i + 1 },
                    {
                      key: 'match',
                      title: t('jackpot.match.match'),
                      render: (_, __, i) => (matches[i] ? `${matches[i].home_team} – ${matches[i].away_team}` : '-'),
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
