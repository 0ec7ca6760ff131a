import { useMemo, useState, type ComponentType } from 'react';
import { CheckOutlined, ClearOutlined, MessageOutlined, SendOutlined } from '@ant-design/icons';
import { Button, Image, Progress, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { APP_PLATFORMS, MESSAGE_AUDIENCES, MESSAGE_SEND_STATUSES, appVersionResource, boardMessageResource, messageResource, type BoardClearAnswer } from '@dau/contract/ui';
import { api, type ListAnswer } from '../../kit/api';
import { useMsg } from '../../kit/messages';
import { ActionButton, ResourcePage, useApiMutation, type Row } from '../../resources';
import { codeOptions, messagingView } from './shared';
import { ReplyDialog } from './ReplyDialog';
import { SendDialog } from './SendDialog';

/** Long text in a list cell: two lines, the whole text on hover. */
const clamp = (v: unknown) => (
  <Typography.Paragraph ellipsis={{ rows: 2, tooltip: String(v ?? '') }} style={{ margin: 0, maxWidth: 420 }}>
    {String(v ?? '')}
  </Typography.Paragraph>
);

/** Messaging › Message board: what bettors of my branch wrote; read, reply into their inbox, delete, clear. */
function BoardScreen() {
  const { t } = useTranslation();
  const msg = useMsg();
  const [replying, setReplying] = useState<Row | null>(null);
  const markRead = useApiMutation((id: number) => api.post(`/messaging/board/${id}/read`), { invalidate: [['message_board']] });
  const clear = useApiMutation(() => api.post<BoardClearAnswer>('/messaging/board/clear', { confirm: true }), { invalidate: [['message_board']] });
  const def = useMemo(
    () =>
      messagingView(boardMessageResource, {
        content: { render: clamp, keep: true },
        read_status: {
          keep: true,
          render: (v) => <Tag color={Number(v) === 2 ? 'default' : 'blue'}>{t(Number(v) === 2 ? 'messaging.read.viewed' : 'messaging.read.not_viewed')}</Tag>,
        },
        replied: { options: codeOptions(['yes', 'no'], (c) => t(`messaging.replied.${c}`)), render: (v) => <Tag color={v === 'yes' ? 'green' : undefined}>{t(`messaging.replied.${String(v)}`)}</Tag> },
        reply_content: { render: (v) => (v ? <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{String(v)}</Typography.Paragraph> : '-') },
      }),
    [t],
  );
  const rowActions = (row: Row) => (
    <>
      {Number(row.read_status) !== 2 ? (
        <Tooltip title={t('messaging.board.markRead')}>
          <Button type="text" size="small" icon={<CheckOutlined />} aria-label={t('messaging.board.markRead')} data-testid={`board-read-${String(row.id)}`} onClick={() => markRead.mutate(Number(row.id))} />
        </Tooltip>
      ) : null}
      {row.replied !== 'yes' ? (
        <ActionButton action="reply" page="message_board" type="text" size="small" compact icon={<MessageOutlined />} testId={`board-reply-${String(row.id)}`} onClick={() => setReplying(row)} />
      ) : null}
    </>
  );
  return (
    <ResourcePage
      def={def}
      detailTitle={(row) => t('messaging.board.detailTitle', { phone: String(row.phone ?? '') })}
      rowActions={rowActions}
      detailActions={(row) => (row.replied !== 'yes' ? <ActionButton action="reply" page="message_board" icon={<MessageOutlined />} onClick={() => setReplying(row)} /> : null)}
      toolbar={() => (
        <ActionButton action="clear" page="message_board" danger icon={<ClearOutlined />} confirm={msg('CONFIRM_CLEAR_MESSAGES')} testId="board-clear" onClick={() => clear.mutateAsync(undefined)} />
      )}
      pollInterval={() => 15_000}
    >
      <ReplyDialog row={replying} onClose={() => setReplying(null)} />
    </ResourcePage>
  );
}

/** Delivery progress of a send: recipients written / recipients, or the reads of a sent one. */
function SendProgress({ row }: { row: Row }) {
  const { t } = useTranslation();
  const total = Number(row.recipient_count ?? 0);
  const done = Number(row.delivered_count ?? 0);
  if (row.status === 'sending') {
    const pct = total ? Math.min(100, Math.floor((done / total) * 100)) : 0;
    return <Progress percent={pct} size="small" status="active" style={{ minWidth: 120 }} data-testid={`message-progress-${String(row.id)}`} />;
  }
  return <span data-testid={`message-delivered-${String(row.id)}`}>{t('messaging.list.delivered', { done, total })}</span>;
}

const STATUS_COLOR: Record<string, string | undefined> = { scheduled: 'gold', sending: 'processing', sent: 'green', cancelled: 'default' };

/** Messaging › Message list: in-app messages sent by my branch, their progress and reads; send, cancel or withdraw. */
function MessageScreen() {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const def = useMemo(
    () =>
      messagingView(messageResource, {
        title: { keep: true },
        content: { render: clamp },
        audience: { options: codeOptions(MESSAGE_AUDIENCES, (c) => t(`messaging.audience.${c}`)), render: (v) => t(`messaging.audience.${String(v)}`) },
        status: {
          keep: true,
          options: codeOptions(MESSAGE_SEND_STATUSES, (c) => t(`messaging.status.${c}`)),
          render: (v, row) => (
            <Tag color={STATUS_COLOR[String(v)]} data-testid={`message-status-${String(row.id)}`}>
              {t(`messaging.status.${String(v)}`)}
            </Tag>
          ),
        },
        delivered_count: { keep: true, render: (_v, row) => <SendProgress row={row} /> },
      }),
    [t],
  );
  // Every 2 s while a send of the page is scheduled or on its way; else every 30 s (reads come in).
  const poll = (answer: ListAnswer<Row> | undefined) => (answer?.items.some((r) => r.status === 'sending' || r.status === 'scheduled') ? 2_000 : 30_000);
  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      detailTitle={(row) => String(row.title ?? '')}
      toolbar={() => (
        <ActionButton action="send" page="message_list" type="primary" icon={<SendOutlined />} testId="message-send" onClick={() => setSending(true)} />
      )}
      pollInterval={poll}
    >
      <SendDialog open={sending} onClose={() => setSending(false)} />
    </ResourcePage>
  );
}

/** Messaging › App config: app versions per platform, their poster, links and whether the update is forced. */
function AppConfigScreen() {
  const { t } = useTranslation();
  const def = useMemo(
    () =>
      messagingView(appVersionResource, {
        platform: { options: codeOptions(APP_PLATFORMS, (c) => t(`messaging.platform.${c}`)), keep: true, render: (v) => t(`messaging.platform.${String(v)}`) },
        version: { keep: true, help: 'messaging.help.version' },
        version_code: { help: 'messaging.help.version_code' },
        poster: { render: (v) => (v ? <Image src={String(v)} width={48} height={48} alt="" style={{ objectFit: 'cover' }} /> : '-'), help: 'messaging.help.poster' },
        update_text: { render: clamp },
        force_update: { keep: true, help: 'messaging.help.force_update', render: (v) => <Tag color={v ? 'red' : undefined}>{t(v ? 'messaging.force.forced' : 'messaging.force.optional')}</Tag> },
        download_url: { help: 'messaging.help.download_url' },
        update_url: { help: 'messaging.help.update_url' },
      }),
    [t],
  );
  return <ResourcePage def={def} detailTitle={(row) => t('messaging.appConfig.detailTitle', { platform: t(`messaging.platform.${String(row.platform)}`), version: String(row.version ?? '') })} />;
}

/** The messaging screens built from declarations (packages/contract/src/messaging-resources.ts). */
export const screens: Record<string, ComponentType> = {
  message_board: BoardScreen,
  message_list: MessageScreen,
  app_config: AppConfigScreen,
};
