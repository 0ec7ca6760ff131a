import { useEffect, useState } from 'react';
import { Alert, Button, Flex, Input, Modal, Select, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useDialogWidth } from '../../kit/dialog';
import { useMsg } from '../../kit/messages';
import { enumText, formatDateTime, LoadError, PlainTable, useApiMutation, useLocale, type Row } from '../../resources';
import { ISSUE_LISTS, MatchName, RESULT_CANCELLED, ResultMark, TICKET_LISTS, useIssue, type MatchRow } from './shared';

type Draft = { result: number | null; reason: string };

/**
 * Change result: each match's result, from the feed's settled 1X2 result by default. Choosing another
 * result than the feed's is an override: it needs a reason (audited by the server). Only changed rows are sent.
 * A match that has not kicked off gets no home, draw or away result (issue 23): its row says so and offers
 * only Cancelled.
 */
export function ResultsDialog({ issue, onClose }: { issue: Row | null; onClose(): void }) {
  const { t } = useTranslation();
  const msg = useMsg();
  const locale = useLocale();
  const width = useDialogWidth(1000);
  const q = useIssue(issue?.id);
  const [drafts, setDrafts] = useState<Record<number, Draft>>({});
  const [tried, setTried] = useState(false);
  const [common, setCommon] = useState('');

  // Read the period again on opening: its matches kick off meanwhile (a cached answer may still say they have not).
  const { refetch } = q;
  useEffect(() => {
    if (issue) void refetch();
  }, [issue, refetch]);

  useEffect(() => {
    if (!issue || !q.data) return;
    setTried(false);
    setCommon('');
    setDrafts(Object.fromEntries(q.data.matches.map((m) => [m.position, { result: m.result ?? m.feed_result ?? null, reason: m.override_reason ?? '' }])));
  }, [issue, q.data]);

  const save = useApiMutation((results: { position: number; result: number | null; reason?: string }[]) => api.put(`/jackpot/issues/${issue!.id}/results`, { results }), {
    invalidate: [...ISSUE_LISTS, ...TICKET_LISTS],
    onSuccess: onClose,
  });

  const matches = q.data?.matches ?? [];
  const overrides = (m: MatchRow) => {
    const d = drafts[m.position];
    // The server's reading: any result other than the feed's (none yet included) is an override.
    return !!d && d.result !== null && d.result !== (m.feed_result ?? null);
  };
  const changed = matches.filter((m) => drafts[m.position] && (drafts[m.position].result !== (m.result ?? null) || (overrides(m) && !!drafts[m.position].reason.trim() && drafts[m.position].reason.trim() !== (m.override_reason ?? ''))));
  const reasonOf = (m: MatchRow) => drafts[m.position]?.reason.trim() || common.trim();
  const missingReason = changed.filter((m) => overrides(m) && !reasonOf(m));

  const submit = () => {
    setTried(true);
    if (missingReason.length || !changed.length) return;
    void save
      .mutateAsync(
        changed.map((m) => {
          const d = drafts[m.position];
          return { position: m.position, result: d.result, ...(overrides(m) ? { reason: reasonOf(m) } : {}) };
        }),
      )
      .catch(() => undefined);
  };

  const options = (m: MatchRow) => [0, 1, 2, 3].map((r) => ({ value: r, label: enumText('jackpot_result', r, locale), disabled: m.started === false && r !== RESULT_CANCELLED }));
  const set = (position: number, patch: Partial<Draft>) => setDrafts((d) => ({ ...d, [position]: { ...d[position], ...patch } }));

  return (
    <Modal
      open={!!issue}
      title={t('jackpot.results.title', { identifier: String(issue?.identifier ?? '') })}
      width={width}
      onCancel={onClose}
      destroyOnHidden
      data-testid="results-dialog"
      footer={
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Typography.Text type="secondary" data-testid="results-changed">
            {t('jackpot.results.changed', { n: changed.length })}
          </Typography.Text>
          <Flex gap={8}>
            <Button onClick={onClose}>{t('action.cancel')}</Button>
            <Button type="primary" disabled={!changed.length} loading={save.isPending} onClick={submit} data-testid="results-save">
              {t('jackpot.results.save')}
            </Button>
          </Flex>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary">{t('jackpot.results.hint')}</Typography.Paragraph>
      <Flex vertical gap={4} style={{ marginBottom: 12 }}>
        <Typography.Text strong>{t('jackpot.results.commonReason')}</Typography.Text>
        <Input.TextArea
          value={common}
          onChange={(e) => setCommon(e.target.value)}
          autoSize={{ minRows: 1, maxRows: 3 }}
          maxLength={500}
          status={tried && missingReason.length > 0 ? 'error' : undefined}
          placeholder={t('jackpot.results.commonReasonPlaceholder')}
          data-testid="results-common-reason"
        />
      </Flex>
      {tried && missingReason.length > 0 && <Alert type="error" showIcon style={{ marginBottom: 8 }} message={msg('JACKPOT_REASON_REQUIRED')} data-testid="results-reason-missing" />}
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : !q.data ? (
        <Skeleton active />
      ) : (
        <PlainTable<MatchRow>
          rowKey="position"
          dataSource={matches}
          columns={[
            { key: 'position', title: '#', dataIndex: 'position', width: 44 },
            { key: 'match', title: t('jackpot.match.match'), render: (_, m) => <MatchName m={m} /> },
            {
              key: 'kickoff',
              title: t('jackpot.match.kickoff'),
              render: (_, m) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(m.kick_off ?? m.start_time)}</span>,
            },
            { key: 'feed', title: t('jackpot.results.feed'), render: (_, m) => <ResultMark result={m.feed_result} testId={`feed-result-${m.position}`} /> },
            {
              key: 'result',
              title: t('jackpot.match.result'),
              render: (_, m) => (
                <Flex vertical gap={2}>
                  <Select
                    allowClear
                    placeholder={t('jackpot.results.unknown')}
                    options={options(m)}
                    value={drafts[m.position]?.result ?? undefined}
                    onChange={(v: number | undefined) => set(m.position, { result: v ?? null })}
                    style={{ width: 170 }}
                    data-testid={`result-select-${m.position}`}
                  />
                  {m.started === false && (
                    <Typography.Text type="warning" style={{ fontSize: 12, maxWidth: 220 }} data-testid={`result-not-started-${m.position}`}>
                      {t('jackpot.results.notStarted')}
                    </Typography.Text>
                  )}
                </Flex>
              ),
            },
            {
              key: 'reason',
              title: t('jackpot.results.reason'),
              render: (_, m) =>
                overrides(m) ? (
                  <Input
                    value={drafts[m.position]?.reason}
                    maxLength={500}
                    status={tried && !reasonOf(m) ? 'error' : undefined}
                    placeholder={common.trim() || t('jackpot.results.reasonPlaceholder')}
                    onChange={(e) => set(m.position, { reason: e.target.value })}
                    style={{ minWidth: 220 }}
                    data-testid={`result-reason-${m.position}`}
                  />
                ) : (
                  <Typography.Text type="secondary">{m.result_source === 'operator' ? t('jackpot.results.operator') : t('jackpot.results.fromFeed')}</Typography.Text>
                ),
            },
          ]}
        />
      )}
    </Modal>
  );
}
