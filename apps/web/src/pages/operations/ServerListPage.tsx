import { useMemo } from 'react';
import { DeleteOutlined } from '@ant-design/icons';
import { Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ServerListAnswer, ServerRow } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { ActionButton, formatDateTime, LoadError, useFeedback } from '../../resources';
import { mb, OpsHeader, StateTag } from './shared';
import { serverCounts } from './serverCount';

const KEY = ['operations', 'servers'];

/**
 * System › Servers (`server_list`): every process of the product with its last beat and state (up, down
 * after 30 s without a beat, stopped), version, leaderships, jobs, memory, event-loop delay and database
 * pool. Reloads every 5 s. A server that is down or stopped can be removed from the list.
 */
export default function ServerListPage() {
  const { t } = useTranslation();
  const { ok, fail } = useFeedback();
  const client = useQueryClient();
  const q = useQuery({ queryKey: KEY, queryFn: () => api.get<ServerListAnswer>('/operations/servers'), refetchInterval: 5_000 });

  const columns = useMemo<TableColumnsType<ServerRow>>(
    () => [
      {
        key: 'host',
        title: t('operations.server.host'),
        render: (_, s) => (
          <Space size={4} wrap>
            <Typography.Text strong>{s.host}</Typography.Text>
            {s.current && <Tag color="blue">{t('operations.server.current')}</Tag>}
          </Space>
        ),
      },
      { key: 'state', title: t('operations.server.state'), render: (_, s) => <StateTag state={s.state} text={t(`operations.state.${s.state}`)} testId={`server-state-${s.id}`} /> },
      { key: 'pid', title: t('operations.server.pid'), dataIndex: 'pid', align: 'right' },
      { key: 'version', title: t('operations.server.version'), render: (_, s) => <Typography.Text code style={{ fontSize: 12 }}>{s.version}</Typography.Text> },
      { key: 'database', title: t('operations.server.database'), dataIndex: 'database_kind' },
      { key: 'started', title: t('operations.server.started'), render: (_, s) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(s.started_at)}</span> },
      { key: 'beat', title: t('operations.server.lastBeat'), render: (_, s) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(s.last_beat_at)}</span> },
      {
        key: 'leader',
        title: t('operations.server.leader'),
        render: (_, s) => (s.leaderships.length ? <Space size={2} wrap>{s.leaderships.map((l) => <Tag key={l}>{l}</Tag>)}</Space> : <Typography.Text type="secondary">{t('operations.server.none')}</Typography.Text>),
      },
      { key: 'jobs', title: t('operations.server.jobs'), dataIndex: 'jobs_running', align: 'right' },
      { key: 'memory', title: t('operations.server.memory'), render: (_, s) => <span style={{ whiteSpace: 'nowrap' }}>{mb(s.rss_bytes)} / {mb(s.heap_used_bytes)}</span> },
      { key: 'loop', title: t('operations.server.loop'), align: 'right', render: (_, s) => `${s.loop_delay_p99_ms.toFixed(1)} ms` },
      { key: 'pool', title: t('operations.server.pool'), render: (_, s) => <span style={{ whiteSpace: 'nowrap' }}>{t('operations.server.poolValue', { inUse: s.pool_in_use, total: s.pool_total })}</span> },
      {
        key: 'actions',
        title: '',
        fixed: 'right',
        render: (_, s) =>
          s.state === 'up' ? null : (
            <ActionButton
              action="delete"
              compact
              size="small"
              danger
              icon={<DeleteOutlined />}
              testId={`server-delete-${s.id}`}
              confirm={t('operations.server.deleteConfirm')}
              onClick={async () => {
                try {
                  await api.del(`/operations/servers/${s.id}`);
                  ok();
                  await client.invalidateQueries({ queryKey: KEY });
                } catch (err) {
                  fail(err);
                  throw err;
                }
              }}
            />
          ),
      },
    ],
    [t, ok, fail, client],
  );

  const rows = q.data?.rows ?? [];
  return (
    <div data-testid="server-list">
      <OpsHeader
        page="server_list"
        onRefresh={() => void q.refetch()}
        busy={q.isFetching}
        extra={
          q.data && (
            <Tooltip title={t('operations.server.deleteHint')}>
              <Tag data-testid="server-count">{serverCounts(rows).map((c) => t('operations.server.countOf', { state: t(`operations.state.${c.state}`), n: c.n })).join(' · ')}</Tag>
            </Tooltip>
          )
        }
      />
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <Table<ServerRow> size="small" rowKey="id" columns={columns} dataSource={rows} loading={q.isLoading} pagination={false} scroll={{ x: 'max-content' }} data-testid="server-table" />
      )}
    </div>
  );
}
