import { useEffect } from 'react';
import { Descriptions, Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BoardReplyAnswer } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { useApiMutation, type Row } from '../../resources';
import { MessageDialog } from './shared';

/** Answers a board message: the text goes to the bettor's inbox as an in-app message; the row becomes replied and read. */
export function ReplyDialog({ row, onClose }: { row: Row | null; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ title: string; content: string }>();
  const reply = useApiMutation((v: { id: number; title: string; content: string }) => api.post<BoardReplyAnswer>(`/messaging/board/${v.id}/reply`, { title: v.title, content: v.content }), {
    invalidate: [['message_board'], ['message_list']],
    onSuccess: () => onClose(),
  });
  // A new row: a fresh form (before the operator types), with the default title.
  useEffect(() => {
    if (row) form.resetFields();
  }, [row, form]);
  return (
    <MessageDialog
      open={!!row}
      title={t('messaging.reply.title')}
      maxWidth={560}
      okText={t('button.reply')}
      testId="reply"
      form={form}
      initialValues={{ title: t('messaging.reply.defaultTitle'), content: '' }}
      contentLabel={t('messaging.reply.content')}
      busy={reply.isPending}
      onClose={onClose}
      onSend={(v) => reply.mutateAsync({ id: Number(row!.id), ...v })}
      head={
        row ? (
          <Descriptions
            size="small"
            bordered
            column={1}
            style={{ marginBottom: 16 }}
            items={[
              { key: 'who', label: t('messaging.field.phone'), children: `${String(row.phone ?? '')}${row.bettor_name ? ` · ${String(row.bettor_name)}` : ''}` },
              { key: 'what', label: t('messaging.field.content'), children: <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{String(row.content ?? '')}</Typography.Paragraph> },
            ]}
          />
        ) : null
      }
      foot={<Typography.Text type="secondary">{t('messaging.reply.help')}</Typography.Text>}
    />
  );
}
