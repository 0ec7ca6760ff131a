import { QuestionCircleOutlined } from '@ant-design/icons';
import { Alert, Badge, Card, Col, Descriptions, Row as Grid, Skeleton, Space, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { formatDateTime, LoadError, PageHeader, useLocale } from '../../resources';
import { RecoverButton, type RecoveryAnswer } from './recovery';

export const PAGE = 'receiving_statistics';
/** The query of the panel: a recovery asked from it refreshes it. */
const QUERY_KEY = [PAGE];

/** What the engine says of a producer (UOF): up, down (its markets suspended), or recovering (a snapshot on its way). */
export type ProducerState = 'up' | 'down' | 'recovering';

/** The recovery in progress of a producer. */
export interface ProducerRecovery {
  request_id: number;
  /** When it was asked (ISO). */
  since: string;
  /** Recovering from this time (ISO); null: a full recovery. */
  after: string | null;
}

/**
 * GET /sports/receiving_statistics (apps/server/src/modules/feed/routes.ts). The UOF fields (name and
 * description from the provider's producers list, state, recovery, last processed) are optional: an older
 * server answers without them, and the panel reads `alive` then.
 */
export interface ProducerStats {
  producer: number;
  /** The provider's short name ('LO') and description ('Live Odds'). */
  name?: string;
  description?: string;
  state?: ProducerState;
  recovery?: ProducerRecovery | null;
  /** The timestamp of the last message processed: the next recovery starts from it. */
  last_processed_at?: string | null;
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

export interface ReceivingAnswer {
  items: ProducerStats[];
  unattributed_errors: { data_error: number; unknown_type: number };
  events: number;
}

const REFRESH_MS = 5_000;
/** The simulated provider's producers (Sportradar numbering), when the answer does not name them. */
const PRODUCER_NAMES: Record<number, string> = { 1: 'sports.producers.live', 3: 'sports.producers.prematch' };

const STATE_BADGE: Record<ProducerState, { status: 'success' | 'error' | 'processing'; label: string }> = {
  up: { status: 'success', label: 'sports.producers.up' },
  down: { status: 'error', label: 'sports.producers.down' },
  recovering: { status: 'processing', label: 'sports.producers.recovering' },
};

/** The producer's state; an older answer has only `alive`. */
export const producerState = (s: ProducerStats): ProducerState => s.state ?? (s.recovery ? 'recovering' : s.alive ? 'up' : 'down');

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

/** The producer as the operator knows it: the provider's description and short name, else the simulator's. */
function useProducerTitle(s: ProducerStats): string {
  const { t } = useTranslation();
  if (s.description) return t('sports.producers.named', { description: s.description, name: s.name || s.producer, id: s.producer });
  const known = PRODUCER_NAMES[s.producer];
  return known ? t(known, { id: s.producer }) : t('sports.producers.title', { id: s.producer });
}

/** "Recover now": the producer's markets stay suspended until the provider's snapshot is complete. */
function RecoverProducerButton({ s, title }: { s: ProducerStats; title: string }) {
  const { t } = useTranslation();
  const toast = (a: RecoveryAnswer) =>
    `${t('sports.recovery.requested', { id: a.request_id })} · ${a.after ? t('sports.recovery.fromTime', { time: formatDateTime(a.after) }) : t('sports.recovery.full')}`;
  return (
    <RecoverButton
      page={PAGE}
      path={`/sports/producers/${encodeURIComponent(String(s.producer))}/recovery`}
      size="small"
      question={t('sports.recovery.confirmProducer', { name: title })}
      warning={t('sports.recovery.producerWarning')}
      invalidate={[QUERY_KEY]}
      toast={toast}
      testId={`producer-recover-${s.producer}`}
    >
      {t('sports.recovery.producerButton')}
    </RecoverButton>
  );
}

function ProducerCard({ s, now }: { s: ProducerStats; now: number }) {
  const { t } = useTranslation();
  const title = useProducerTitle(s);
  const state = producerState(s);
  const badge = STATE_BADGE[state];
  const recovery = s.recovery ?? null;
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
      title={title}
      extra={
        <Space size={12} wrap>
          <span data-testid={`producer-alive-${s.producer}`} data-alive={s.alive} data-state={state}>
            <Badge status={badge.status} text={t(badge.label)} />
          </span>
          <RecoverProducerButton s={s} title={title} />
        </Space>
      }
    >
      <Descriptions
        size="small"
        column={1}
        style={{ marginBottom: 12 }}
        items={[
          { key: 'alive', label: t('sports.producers.lastAlive'), children: <When iso={s.last_alive_at} now={now} /> },
          { key: 'last', label: t('sports.producers.lastMessage'), children: <When iso={s.last_message_at} now={now} /> },
          // An older server does not say it (undefined); null: nothing processed yet.
          ...(s.last_processed_at === undefined
            ? []
            : [
                {
                  key: 'processed',
                  label: (
                    <Tooltip title={t('sports.producers.lastProcessedHint')}>
                      <span>
                        {t('sports.producers.lastProcessed')} <QuestionCircleOutlined />
                      </span>
                    </Tooltip>
                  ),
                  children: (
                    <span data-testid={`producer-${s.producer}-processed`}>
                      <When iso={s.last_processed_at} now={now} />
                    </span>
                  ),
                },
              ]),
          ...(recovery
            ? [
                {
                  key: 'request',
                  label: t('sports.recovery.request'),
                  children: <Typography.Text data-testid={`producer-${s.producer}-request`}>#{recovery.request_id}</Typography.Text>,
                },
                { key: 'since', label: t('sports.recovery.since'), children: <When iso={recovery.since} now={now} /> },
                {
                  key: 'from',
                  label: t('sports.recovery.from'),
                  children: (
                    <span data-testid={`producer-${s.producer}-from`}>
                      {recovery.after ? <When iso={recovery.after} now={now} /> : <Tag color="blue">{t('sports.recovery.full')}</Tag>}
                    </span>
                  ),
                },
              ]
            : []),
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
    queryKey: QUERY_KEY,
    queryFn: () => api.get<ReceivingAnswer>('/sports/receiving_statistics'),
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
