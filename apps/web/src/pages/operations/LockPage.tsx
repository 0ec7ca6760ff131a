import { useMemo } from 'react';
import { UnlockOutlined } from '@ant-design/icons';
import { Empty, Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LockListAnswer, LockRow } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { useMsg } from '../../kit/messages';
import { ActionButton, formatDateTime, LoadError, useFeedback } from '../../resources';
import { OpsHeader, SqlText, Unsupported } from './shared';

const KEY = ['operations', 'locks'];

/**
 * System › Database locks (`mysql_lock`, the spec's MySQL lock view on PostgreSQL): sessions of the
 * product's database that hold or wait for locks, with the query, state, start time, the locks and who
 * blocks whom. Release ends the holding session after the spec's confirmation; the server's own
 * connections cannot be released. On the embedded database the screen says why it is empty.
 */
export default function LockPage() {
  const { t } = useTranslation();
  const msg = useMsg();
  const { ok, fail } = useFeedback();
  const client = useQueryClient();
  const q = useQuery({ queryKey: KEY, queryFn: () => api.get<LockListAnswer>('/operations/locks'), refetchInterval: 5_000 });

  const columns = useMemo<TableColumnsType<LockRow>>(
    () => [
      {
        key: 'pid',
        title: t('operations.lock.pid'),
        render: (_, l) => (
          <Space size={4}>
            <Typography.Text strong>{l.pid}</Typography.Text>
            {l.own && (
              <Tooltip title={t('operations.lock.ownHint')}>
                <Tag color="blue">{t('operations.lock.own')}</Tag>
              </Tooltip>
            )}
          </Space>
        ),
      },
      {
        key: 'state',
        title: t('operations.lock.state'),
        render: (_, l) => (
          <Space size={2} wrap>
            <span>{l.state ?? '—'}</span>
            {!l.granted && <Tag color="orange">{t('operations.lock.waiting')}</Tag>}
          </Space>
        ),
      },
      { key: 'query', title: t('operations.lock.query'), render: (_, l) => <SqlText sql={l.query} /> },
      { key: 'started', title: t('operations.lock.started'), render: (_, l) => <span style={{ whiteSpace: 'nowrap' }}>{l.xact_start ? formatDateTime(l.xact_start) : l.query_start ? formatDateTime(l.query_start) : '—'}</span> },
      {
        key: 'blocked_by',
        title: t('operations.lock.blockedBy'),
        render: (_, l) => (l.blocked_by.length ? <Space size={2} wrap>{l.blocked_by.map((p) => <Tag color="red" key={p}>{p}</Tag>)}</Space> : null),
      },
      {
        key: 'blocking',
        title: t('operations.lock.blocking'),
        render: (_, l) => (l.blocking.length ? <Space size={2} wrap data-testid={`lock-blocking-${l.pid}`}>{l.blocking.map((p) => <Tag color="volcano" key={p}>{p}</Tag>)}</Space> : null),
      },
      { key: 'application', title: t('operations.lock.application'), render: (_, l) => l.application ?? '—' },
      { key: 'user', title: t('operations.lock.user'), render: (_, l) => l.user ?? '—' },
      { key: 'client', title: t('operations.lock.client'), render: (_, l) => l.client ?? '—' },
      {
        key: 'locks',
        title: t('operations.lock.locks'),
        render: (_, l) => (
          <Typography.Text type="secondary" ellipsis={{ tooltip: l.locks.join('\n') }} style={{ maxWidth: 220, fontSize: 12 }}>
            {l.locks.join(', ')}
          </Typography.Text>
        ),
      },
      {
        key: 'actions',
        title: '',
        fixed: 'right',
        render: (_, l) =>
          l.own ? null : (
            <ActionButton
              action="release"
              size="small"
              danger
              icon={<UnlockOutlined />}
              testId={`lock-release-${l.pid}`}
              confirm={msg('CONFIRM_RELEASE_LOCK')}
              onClick={async () => {
                try {
                  await api.post(`/operations/locks/${l.pid}/release`);
                  ok();
                } catch (err) {
                  fail(err);
                  throw err;
                } finally {
                  await client.invalidateQueries({ queryKey: KEY });
                }
              }}
            />
          ),
      },
    ],
    [t, msg, ok, fail, client],
  );

  return (
    <div data-testid="lock-page">
      <OpsHeader page="mysql_lock" onRefresh={() => void q.refetch()} busy={q.isFetching} />
      {q.data && !q.data.supported && <Unsupported text={q.data.message} />}
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <Table<LockRow>
          size="small"
          rowKey="pid"
          columns={columns}
          dataSource={q.data?.rows ?? []}
          loading={q.isLoading}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('operations.lock.none')} /> }}
          data-testid="lock-table"
        />
      )}
    </div>
  );
}
