import { useEffect } from 'react';
import { Descriptions, Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { MESSAGE_CONTENT_MAX, MESSAGE_TITLE_MAX, type BoardReplyAnswer } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { useDialogWidth } from '../../kit/dialog';
import { useApiMutation, type Row } from '../../resources';

/** Answers a board message: the text goes to the bettor's inbox as an in-app message; the row becomes replied and read. */
export function ReplyDialog({ row, onClose }: { row: Row | null; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ title: string; content: string }>();
  const width = useDialogWidth(560);
  const reply = useApiMutation((v: { id: number; title: string; content: string }) => api.post<BoardReplyAnswer>(`/messaging/board/${v.id}/reply`, { title: v.title, content: v.content }), {
    invalidate: [['message_board'], ['message_list']],
    onSuccess: () => onClose(),
  });
  // A new row: a fresh form (before the operator types), with the default title.
  useEffect(() => {
    if (row) form.resetFields();
  }, [row, form]);
  const submit = async () => {
    const v = await form.validateFields();
    await reply.mutateAsync({ id: Number(row!.id), ...v }).catch(() => undefined);
  };
  return (
    <Modal
      open={!!row}
      title={t('messaging.reply.title')}
      width={width}
      onCancel={onClose}
      onOk={submit}
      okText={t('button.reply')}
      okButtonProps={{ loading: reply.isPending, 'data-testid': 'reply-submit' } as never}
      destroyOnHidden
    >
      {row ? (
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
      ) : null}
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ title: t('messaging.reply.defaultTitle'), content: '' }}>
        <Form.Item name="title" label={t('messaging.field.title')} rules={[{ required: true, whitespace: true, message: t('messaging.send.titleRequired') }]}>
          <Input maxLength={MESSAGE_TITLE_MAX} data-testid="reply-title" />
        </Form.Item>
        <Form.Item name="content" label={t('messaging.reply.content')} rules={[{ required: true, whitespace: true, message: t('messaging.send.contentRequired') }]}>
          <Input.TextArea rows={4} maxLength={MESSAGE_CONTENT_MAX} showCount data-testid="reply-content" />
        </Form.Item>
      </Form>
      <Typography.Text type="secondary">{t('messaging.reply.help')}</Typography.Text>
    </Modal>
  );
}
