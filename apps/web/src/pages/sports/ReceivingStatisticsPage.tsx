import { Alert, Badge, Card, Col, Descriptions, Row as Grid, Skeleton, Space, Statistic, Table, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { formatDateTime, LoadError, PageHeader, useLocale } from '../../resources';

/** GET /sports/receiving_statistics (apps/server/src/modules/feed/routes.ts). */
interface ProducerStats {
  producer: number;
  alive: boolean;
  last_message_at: string | null;
  last_alive_at: string | null;
  messages: Record<string, number>;
  duplicates: number;
  out_of_order: number;
  downs: number;
  recoveries: number;
  selection_updates: number;
  errors: { data_error: number; unknown_type: number };
  last_error: string | null;
}

interface Answer {
  items: ProducerStats[];
  unattributed_errors: { data_error: number; unknown_type: number };
  events: number;
}

const REFRESH_MS = 5_000;
/** The simulated provider's producers (Sportradar numbering). */
const PRODUCER_NAMES: Record<number, string> = { 1: 'sports.producers.live', 3: 'sports.producers.prematch' };

/** "12 seconds ago" in the operator's language (Intl, no date library plugin). */
function relative(iso: string, now: number, locale: string): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const fmt = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 60) return fmt.format(seconds, 'second');
  if (abs < 3600) return fmt.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return fmt.format(Math.round(seconds / 3600), 'hour');
  return fmt.format(Math.round(seconds / 86400), 'day');
}

function When({ iso, now }: { iso: string | null; now: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (!iso) return <Typography.Text type="secondary">{t('sports.producers.never')}</Typography.Text>;
  return (
    <Space size={6} wrap>
      <span>{relative(iso, now, locale)}</span>
      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>{formatDateTime(iso)}</Typography.Text>
    </Space>
  );
}

function ProducerCard({ s, now }: { s: ProducerStats; now: number }) {
  const { t } = useTranslation();
  const name = PRODUCER_NAMES[s.producer];
  const figures: Array<{ key: string; label: string; value: number; danger?: boolean }> = [
    { key: 'duplicates', label: t('sports.producers.duplicates'), value: s.duplicates },
    { key: 'out_of_order', label: t('sports.producers.outOfOrder'), value: s.out_of_order },
    { key: 'downs', label: t('sports.producers.downs'), value: s.downs },
    { key: 'recoveries', label: t('sports.producers.recoveries'), value: s.recoveries },
    { key: 'selection_updates', label: t('sports.producers.selectionUpdates'), value: s.selection_updates },
    { key: 'data_error', label: t('sports.producers.dataErrors'), value: s.errors.data_error, danger: true },
    { key: 'unknown_type', label: t('sports.producers.unknownTypes'), value: s.errors.unknown_type, danger: true },
  ];
  const messages = Object.entries(s.messages).map(([type, count]) => ({ type, count }));
  return (
    <Card
      size="small"
      data-testid={`producer-${s.producer}`}
      title={name ? t(name, { id: s.producer }) : t('sports.producers.title', { id: s.producer })}
      extra={
        <span data-testid={`producer-alive-${s.producer}`} data-alive={s.alive}>
          <Badge status={s.alive ? 'success' : 'error'} text={t(s.alive ? 'sports.producers.alive' : 'sports.producers.down')} />
        </span>
      }
    >
      <Descriptions
        size="small"
        column={1}
        style={{ marginBottom: 12 }}
        items={[
          { key: 'last', label: t('sports.producers.lastMessage'), children: <When iso={s.last_message_at} now={now} /> },
          { key: 'alive', label: t('sports.producers.lastAlive'), children: <When iso={s.last_alive_at} now={now} /> },
        ]}
      />
      <Grid gutter={[12, 12]} style={{ marginBottom: 12 }}>
        {figures.map((f) => (
          <Col key={f.key} xs={12} sm={8} md={6}>
            <Statistic
              title={f.label}
              value={f.value}
              styles={{ content: { fontSize: 18, color: f.danger && f.value > 0 ? '#cf1322' : undefined } }}
              data-testid={`producer-${s.producer}-${f.key}`}
            />
          </Col>
        ))}
      </Grid>
      {s.last_error && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('sports.producers.lastError')} description={s.last_error} />}
      <Typography.Text strong>{t('sports.producers.messages')}</Typography.Text>
      <Table
        size="small"
        rowKey="type"
        pagination={false}
        style={{ marginTop: 8 }}
        dataSource={messages}
        columns={[
          { key: 'type', title: t('sports.producers.type'), render: (_, m) => <Tooltip title={m.type}>{t(`sports.producers.type_${m.type}`, { defaultValue: m.type })}</Tooltip> },
          { key: 'count', title: t('sports.producers.count'), dataIndex: 'count', align: 'right' },
        ]}
      />
    </Card>
  );
}

/** Data › Data provider statistics: per producer, alive state, last message, messages by type and errors (every 5 s). */
export default function ReceivingStatisticsPage() {
  const { t } = useTranslation();
  const q = useQuery({
    queryKey: ['receiving_statistics'],
    queryFn: () => api.get<Answer>('/sports/receiving_statistics'),
    refetchInterval: REFRESH_MS,
  });
  // The answer's time: "n seconds ago" moves on with each refresh.
  const now = q.dataUpdatedAt || Date.now();
  return (
    <>
      <PageHeader title={t('menu.receiving_statistics')} description={t('sports.describe.receiving_statistics')} />
      {q.isPending ? (
        <Skeleton active />
      ) : q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <Grid gutter={[16, 16]} style={{ marginBottom: 16 }}>
            <Col xs={24} sm={8}>
              <Card size="small">
                <Statistic title={t('sports.producers.events')} value={q.data?.events ?? 0} data-testid="feed-events" />
              </Card>
            </Col>
            <Col xs={24} sm={16}>
              <Card size="small">
                <Space size={32} wrap>
                  <Statistic title={`${t('sports.producers.unattributed')} · ${t('sports.producers.dataErrors')}`} value={q.data?.unattributed_errors.data_error ?? 0} />
                  <Statistic title={`${t('sports.producers.unattributed')} · ${t('sports.producers.unknownTypes')}`} value={q.data?.unattributed_errors.unknown_type ?? 0} />
                  <Badge status="processing" text={<Typography.Text type="secondary">{t('sports.producers.refreshed')}</Typography.Text>} />
                </Space>
              </Card>
            </Col>
          </Grid>
          {!q.data?.items.length ? (
            <Alert type="info" showIcon title={t('sports.producers.none')} />
          ) : (
            <Grid gutter={[16, 16]}>
              {[...q.data.items].sort((a, b) => a.producer - b.producer).map((s) => (
                <Col key={s.producer} xs={24} xl={12}>
                  <ProducerCard s={s} now={now} />
                </Col>
              ))}
            </Grid>
          )}
        </>
      )}
    </>
  );
}
