import { useMemo } from 'react';
import { Alert, Card, Empty, Flex, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ActivityAnswer, ActivityRow, StatementRow } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { LoadError } from '../../resources';
import { OpsHeader, SqlText, Unsupported } from './shared';

/**
 * System › Slow queries (`mysql_time_consuming`, the spec's MySQL slow-thread view on PostgreSQL): the
 * sessions now, longest first (id, user, host, database, command, time in seconds, SQL), and the top
 * statements by total and by mean time from pg_stat_statements, or how to enable it.
 */
export default function SlowQueryPage() {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['operations', 'activity'], queryFn: () => api.get<ActivityAnswer>('/operations/activity'), refetchInterval: 10_000 });

  const columns = useMemo<TableColumnsType<ActivityRow>>(
    () => [
      {
        key: 'pid',
        title: t('operations.slow.pid'),
        render: (_, a) => (
          <span style={{ whiteSpace: 'nowrap' }}>
            {a.pid} {a.own && <Tag color="blue">{t('operations.lock.own')}</Tag>}
          </span>
        ),
      },
      { key: 'user', title: t('operations.slow.user'), render: (_, a) => a.user ?? '—' },
      { key: 'host', title: t('operations.slow.host'), render: (_, a) => a.host ?? '—' },
      { key: 'database', title: t('operations.slow.database'), render: (_, a) => a.database ?? '—' },
      { key: 'command', title: t('operations.slow.command'), render: (_, a) => <Tag color={a.command === 'Query' ? 'processing' : 'default'}>{a.command ?? a.state ?? '—'}</Tag> },
      { key: 'seconds', title: t('operations.slow.seconds'), align: 'right', render: (_, a) => <Typography.Text type={a.command === 'Query' && a.seconds > 5 ? 'danger' : undefined}>{a.seconds.toFixed(1)}</Typography.Text> },
      { key: 'sql', title: t('operations.slow.sql'), render: (_, a) => <SqlText sql={a.sql} width={420} /> },
    ],
    [t],
  );
  const statementColumns = useMemo<TableColumnsType<StatementRow>>(
    () => [
      { key: 'query', title: t('operations.slow.sql'), render: (_, s) => <SqlText sql={s.query} width={420} /> },
      { key: 'calls', title: t('operations.slow.calls'), dataIndex: 'calls', align: 'right' },
      { key: 'total', title: t('operations.slow.totalMs'), align: 'right', render: (_, s) => s.total_ms.toFixed(1) },
      { key: 'mean', title: t('operations.slow.meanMs'), align: 'right', render: (_, s) => s.mean_ms.toFixed(2) },
      { key: 'rows', title: t('operations.slow.rows'), dataIndex: 'rows', align: 'right' },
    ],
    [t],
  );
  const d = q.data;
  const table = <T extends object>(rows: T[], cols: TableColumnsType<T>, key: string, testId: string) => (
    <Table<T> size="small" rowKey={key} columns={cols} dataSource={rows} loading={q.isLoading} pagination={false} scroll={{ x: 'max-content' }} locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }} data-testid={testId} />
  );

  return (
    <div data-testid="slow-page">
      <OpsHeader page="mysql_time_consuming" onRefresh={() => void q.refetch()} busy={q.isFetching} />
      {d && !d.supported && <Unsupported text={d.message} />}
      {q.isError && !d ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <Flex vertical gap={16}>
          <Card size="small" title={t('operations.slow.sessions')}>
            {table(d?.rows ?? [], columns, 'pid', 'slow-sessions')}
          </Card>
          {d?.supported && !d.statements.available && <Alert type="info" showIcon title="pg_stat_statements" description={d.statements.message} data-testid="statements-off" />}
          {d?.statements.available && (
            <>
              <Card size="small" title={t('operations.slow.byTotal')}>
                {table(d.statements.by_total.map((s, i) => ({ ...s, i })), statementColumns as TableColumnsType<StatementRow & { i: number }>, 'i', 'statements-total')}
              </Card>
              <Card size="small" title={t('operations.slow.byMean')}>
                {table(d.statements.by_mean.map((s, i) => ({ ...s, i })), statementColumns as TableColumnsType<StatementRow & { i: number }>, 'i', 'statements-mean')}
              </Card>
            </>
          )}
        </Flex>
      )}
    </div>
  );
}
