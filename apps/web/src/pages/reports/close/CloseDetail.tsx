import { useState, type ReactNode } from 'react';
import { Alert, Descriptions, Flex, Select, Skeleton, Table, Tag, Tooltip, Typography } from 'antd';
import { InfoCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CLOSE_PRODUCTS, type CloseDayAnswer, type CloseFigures, type CloseProduct } from '@dau/contract/ui';
import { formatTsh } from '@dau/domain';
import { api } from '../../../kit/api';
import { LoadError, enumText, formatDateTime, useLocale } from '../../../resources';
import { LedgerProblems } from './LedgerProblems';
import { COUNT_FIGURES, FIGURE_LABEL, LIABILITY_LABEL, MOVEMENT_LABEL, OPEN_LABEL, PAYMENT_LABEL, PRODUCT_LABEL, SECTION_LABEL } from './labels';

const PRODUCT_FIGURES = Object.keys(FIGURE_LABEL) as (keyof CloseProduct)[];
const MOVEMENT_KINDS = ['products', 'deposits', 'withdrawals', 'promotions', 'adjustments', 'racing_coins', 'other'] as const;

/** A heading with an optional definition in a tooltip. */
function Heading({ children, hint }: { children: ReactNode; hint?: string }) {
  return (
    <Typography.Title level={5} style={{ marginTop: 20 }}>
      {children}
      {hint && (
        <Tooltip title={hint}>
          <InfoCircleOutlined style={{ marginInlineStart: 6, fontSize: 14 }} aria-label={hint} />
        </Tooltip>
      )}
    </Typography.Title>
  );
}

/**
 * Every figure of a closed day (the drawer of the daily close): the runs of the day and, when they differ,
 * what changed run by run side by side; then the chosen run's products, balances owed at the close, open
 * bets, payments per operator, the change of the balances by cause (and whether it rolls forward from the
 * day before) and the ledger check it kept.
 */
export function CloseDetail({ day }: { day: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const q = useQuery({ queryKey: ['daily_close', 'day', day], queryFn: () => api.get<CloseDayAnswer>(`/reports/daily_closes/${day}`) });
  const [chosen, setChosen] = useState<number | null>(null);
  const money = (v: unknown) => formatTsh(Number(v), locale);
  const value = (key: string, v: unknown) => (v === null || v === undefined ? '—' : typeof v === 'boolean' ? t(v ? 'form.yes' : 'form.no') : COUNT_FIGURES.has(key) ? String(v) : typeof v === 'number' ? money(v) : String(v));

  if (q.isError) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Skeleton active />;
  const { runs, differences, roll_forward: roll } = q.data;
  const run = runs.find((r) => r.run === chosen) ?? runs[0]!;
  const f: CloseFigures = run.figures;

  /** A figure's path in words: "Sports · GGR", "Vodacom · Deposits", "Owed to bettors · Cash". */
  const pathLabel = (path: string) => {
    const [section, a, b] = path.split('.');
    if (section === 'products' && a && b) return `${t(PRODUCT_LABEL[a as 'sports'] ?? a)} · ${t(FIGURE_LABEL[b as 'ggr'] ?? b)}`;
    if (section === 'total' && a) return `${t(PRODUCT_LABEL.total)} · ${t(FIGURE_LABEL[a as 'ggr'] ?? a)}`;
    if (section === 'payments' && a === 'operators' && b) return `${enumText('pay_type', b, locale)} · ${t(PAYMENT_LABEL[path.split('.')[3] ?? ''] ?? path)}`;
    const labels: Record<string, Record<string, string>> = { liability: LIABILITY_LABEL, open_bets: OPEN_LABEL, payments: PAYMENT_LABEL, movement: MOVEMENT_LABEL };
    const part = a && labels[section ?? '']?.[a];
    return `${t(SECTION_LABEL[section ?? ''] ?? section ?? path)}${a ? ` · ${part ? t(part) : a}` : ''}`;
  };
  const lastKey = (path: string) => path.split('.').pop() ?? path;

  const productRows = [...CLOSE_PRODUCTS.map((p) => ({ key: p, ...f.products[p] })), { key: 'total' as const, ...f.total }];
  return (
    <div data-testid="close-detail" style={{ marginTop: 16 }}>
      {runs.length > 1 && (
        <>
          <Alert type="warning" showIcon title={t('reports.close.runsDiffer', { n: runs.length })} style={{ marginBottom: 12 }} data-testid="close-runs-differ" />
          <Table
            size="small"
            pagination={false}
            scroll={{ x: 'max-content' }}
            data-testid="close-differences"
            rowKey={(d) => `${d.run}-${d.path}`}
            dataSource={differences}
            columns={[
              { key: 'figure', title: t('reports.close.figureCol'), render: (_: unknown, d) => pathLabel(d.path) },
              { key: 'before', title: t('reports.close.runNo'), render: (_: unknown, d) => `${d.previous_run} → ${d.run}` },
              { key: 'was', title: t('reports.ledger.col.before'), render: (_: unknown, d) => <Typography.Text delete>{value(lastKey(d.path), d.before)}</Typography.Text> },
              { key: 'now', title: t('reports.ledger.col.after'), render: (_: unknown, d) => <Typography.Text strong>{value(lastKey(d.path), d.after)}</Typography.Text> },
            ]}
          />
          <Flex gap={8} align="center" style={{ marginTop: 12 }}>
            <Typography.Text>{t('reports.close.viewRun')}</Typography.Text>
            <Select
              style={{ minWidth: 280 }}
              value={run.run}
              onChange={setChosen}
              data-testid="close-run-select"
              options={runs.map((r) => ({ value: r.run, label: `${t('reports.close.runCol', { run: r.run })} · ${formatDateTime(r.create_time)}` }))}
            />
          </Flex>
        </>
      )}

      <Heading hint={t('reports.close.cashBasis')}>{t('reports.close.products')}</Heading>
      <Table
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="close-products"
        rowKey="key"
        dataSource={productRows}
        columns={[
          { key: 'product', title: '', dataIndex: 'key', render: (k: string) => (k === 'total' ? <strong>{t(PRODUCT_LABEL.total)}</strong> : t(PRODUCT_LABEL[k as 'sports'])) },
          ...PRODUCT_FIGURES.map((k) => ({
            key: k,
            title: t(FIGURE_LABEL[k]),
            dataIndex: k,
            align: 'right' as const,
            render: (v: number) => (k === 'bets' ? String(v) : <Typography.Text type={v < 0 ? 'danger' : undefined} style={{ whiteSpace: 'nowrap' }}>{money(v)}</Typography.Text>),
          })),
        ]}
      />

      <Heading hint={t('reports.close.liabilityHint')}>{t('reports.close.liability')}</Heading>
      <Descriptions size="small" bordered column={{ xs: 1, md: 3 }} data-testid="close-liability">
        {Object.entries(LIABILITY_LABEL).map(([k, label]) => (
          <Descriptions.Item key={k} label={t(label)}>{value(k, f.liability[k as keyof CloseFigures['liability']])}</Descriptions.Item>
        ))}
      </Descriptions>

      <Heading hint={t('reports.close.openHint')}>{t('reports.close.openBets')}</Heading>
      <Descriptions size="small" bordered column={{ xs: 1, md: 3 }} data-testid="close-open-bets">
        {Object.entries(OPEN_LABEL).map(([k, label]) => (
          <Descriptions.Item key={k} label={t(label)}>{value(k, f.open_bets[k as keyof CloseFigures['open_bets']])}</Descriptions.Item>
        ))}
      </Descriptions>

      <Heading>{t('reports.close.payments')}</Heading>
      <Table
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="close-payments"
        rowKey="pay_type"
        dataSource={f.payments.operators}
        columns={[
          { key: 'operator', title: t('reports.close.operator'), dataIndex: 'pay_type', render: (v: number) => enumText('pay_type', v, locale) },
          { key: 'deposits', title: t('reports.close.deposits'), dataIndex: 'deposits', align: 'right', render: money },
          { key: 'deposit_count', title: t('reports.close.depositCount'), dataIndex: 'deposit_count', align: 'right' },
          { key: 'withdrawals', title: t('reports.close.withdrawals'), dataIndex: 'withdrawals', align: 'right', render: money },
          { key: 'withdrawal_count', title: t('reports.close.withdrawalCount'), dataIndex: 'withdrawal_count', align: 'right' },
          {
            key: 'fees',
            title: (
              <Tooltip title={t('reports.close.feesHint')}>
                {t('reports.close.fees')} <InfoCircleOutlined />
              </Tooltip>
            ),
            dataIndex: 'fees',
            render: (v: number | null) => (v === null ? <Typography.Text type="secondary">{t('reports.close.feesNone')}</Typography.Text> : money(v)),
          },
        ]}
        summary={() => (
          <Table.Summary.Row>
            <Table.Summary.Cell index={0}><strong>{t(PRODUCT_LABEL.total)}</strong></Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">{money(f.payments.deposits)}</Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right">{f.payments.deposit_count}</Table.Summary.Cell>
            <Table.Summary.Cell index={3} align="right">{money(f.payments.withdrawals)}</Table.Summary.Cell>
            <Table.Summary.Cell index={4} align="right">{f.payments.withdrawal_count}</Table.Summary.Cell>
            <Table.Summary.Cell index={5} />
          </Table.Summary.Row>
        )}
      />
      <Descriptions size="small" bordered column={{ xs: 1, md: 3 }} style={{ marginTop: 12 }}>
        {(['withdrawals_requested', 'withdrawals_returned', 'withdrawals_in_flight'] as const).map((k) => (
          <Descriptions.Item key={k} label={t(PAYMENT_LABEL[k]!)}>{money(f.payments[k])}</Descriptions.Item>
        ))}
      </Descriptions>

      <Heading>{t('reports.close.movement')}</Heading>
      <Descriptions size="small" bordered column={{ xs: 1, md: 2 }} data-testid="close-movement">
        {MOVEMENT_KINDS.map((k) => (
          <Descriptions.Item key={k} label={t(MOVEMENT_LABEL[k]!)}>{money(f.movement[k])}</Descriptions.Item>
        ))}
        <Descriptions.Item label={<strong>{t('reports.close.movementTotal')}</strong>}>{money(f.movement.cash + f.movement.credit)}</Descriptions.Item>
      </Descriptions>
      {roll && run === runs[0] && (
        <Alert
          style={{ marginTop: 12 }}
          showIcon
          type={roll.ok ? 'success' : 'error'}
          data-testid="close-roll-forward"
          title={roll.ok ? t('reports.close.rollOk', { day: roll.previous_day }) : t('reports.close.rollBad', { day: roll.previous_day, expected: money(roll.expected), found: money(roll.balances) })}
        />
      )}

      <Heading>{t('reports.close.ledger')}</Heading>
      {f.ledger.ok ? (
        <Tag color="green" data-testid="close-ledger-ok">{t('reports.close.ledgerOk')}</Tag>
      ) : (
        <>
          <Tag color="red" data-testid="close-ledger-bad" style={{ marginBottom: 12 }}>{t('reports.close.ledgerBad', { n: f.ledger.problems })}</Tag>
          <LedgerProblems check={f.ledger} />
        </>
      )}

      <Heading>{t('reports.close.runs')}</Heading>
      <Table
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        data-testid="close-runs"
        rowKey="id"
        dataSource={runs}
        columns={[
          { key: 'run', title: t('reports.close.runNo'), dataIndex: 'run' },
          {
            key: 'source', title: t('reports.close.source'),
            render: (_: unknown, r) => (r.source === 'job' ? t('reports.close.sourceJob') : t('reports.close.sourceAdmin', { account: r.created_by_account ?? r.created_by ?? '' })),
          },
          { key: 'time', title: t('reports.close.time'), dataIndex: 'create_time', render: (v: string) => formatDateTime(v) },
          { key: 'duration', title: t('reports.close.duration'), dataIndex: 'duration_ms', render: (v: number) => t('reports.close.durationMs', { ms: v }) },
          { key: 'ggr', title: t(FIGURE_LABEL.ggr), render: (_: unknown, r) => money(r.figures.total.ggr) },
          { key: 'digest', title: t('reports.close.digest'), dataIndex: 'digest', render: (v: string) => <Typography.Text code>{v.slice(0, 12)}</Typography.Text> },
        ]}
      />
    </div>
  );
}
