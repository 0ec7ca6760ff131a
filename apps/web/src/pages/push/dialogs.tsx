import { useState } from 'react';
import { Alert, Button, Form, Input, Modal, Progress, Select, Space, Table, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PushCountAnswer, PushSendAnswer, PushSendDetail, TelegramBindCodeAnswer } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { formatDateTime, useApiMutation, type Row } from '../../resources';
import { platformOptions, PushErrorText, ResultTag } from './shared';

/** Polls a push every 2 s until it is done. */
function usePushProgress<T extends PushSendAnswer>(path: string | null) {
  return useQuery({
    queryKey: ['push-progress', path],
    queryFn: () => api.get<T>(path!),
    enabled: !!path,
    refetchInterval: (q) => (q.state.data?.status === 'done' ? false : 2000),
  });
}

function ProgressLine({ send }: { send: PushSendAnswer }) {
  const { t } = useTranslation();
  const done = send.sent_count + send.failed_count + send.invalid_count;
  const percent = send.target_count ? Math.round((done * 100) / send.target_count) : 100;
  return (
    <div data-testid="push-progress">
      <Progress percent={percent} status={send.status === 'done' ? 'success' : 'active'} />
      <Typography.Text>
        {t('push.progress.counts', { sent: send.sent_count, invalid: send.invalid_count, failed: send.failed_count, target: send.target_count })}
      </Typography.Text>
      {send.status === 'done' ? <Typography.Text type="success" style={{ display: 'block' }} data-testid="push-done">{t('push.progress.done')}</Typography.Text> : null}
    </div>
  );
}

interface Message {
  title: string;
  body: string;
}

/** Push device › Public push: all devices of my branch or a segment; the count before confirming, then progress. */
export function PublicPushDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Message & { platform?: string; app_version?: string }>();
  const platform = Form.useWatch('platform', form);
  const appVersion = Form.useWatch('app_version', form);
  const [sendId, setSendId] = useState<number | null>(null);
  const segment = { ...(platform ? { platform } : {}), ...(appVersion?.trim() ? { app_version: appVersion.trim() } : {}) };
  const count = useQuery({ queryKey: ['push-count', segment], queryFn: () => api.get<PushCountAnswer>('/push/count', segment), enabled: open && !sendId });
  const progress = usePushProgress(sendId ? `/push/sends/${sendId}` : null);
  const send = useApiMutation((v: Message) => api.post<PushSendAnswer>('/push/public', { title: v.title, body: v.body, segment }), {
    invalidate: [['push_device']],
    onSuccess: (a) => setSendId(a.id),
  });
  const client = useQueryClient();
  const close = () => {
    // The devices' last push changed while the push ran.
    if (sendId) void client.invalidateQueries({ queryKey: ['push_device'] });
    setSendId(null);
    form.resetFields();
    onClose();
  };
  const confirm = async () => {
    const v = await form.validateFields();
    Modal.confirm({
      title: t('push.public.confirmTitle'),
      content: t('push.public.confirm', { count: count.data?.count ?? 0 }),
      okText: t('push.public.send'),
      onOk: () => send.mutateAsync({ title: v.title, body: v.body }),
    });
  };
  return (
    <Modal
      open={open}
      title={t('push.public.title')}
      onCancel={close}
      destroyOnHidden
      footer={
        sendId ? (
          <Button onClick={close}>{t('push.close')}</Button>
        ) : (
          <Space>
            <Button onClick={close}>{t('push.cancel')}</Button>
            <Button type="primary" onClick={confirm} loading={send.isPending} disabled={!count.data?.count} data-testid="public-push-send">
              {t('push.public.send')}
            </Button>
          </Space>
        )
      }
    >
      {sendId && progress.data ? (
        <ProgressLine send={progress.data} />
      ) : (
        <Form form={form} layout="vertical" requiredMark="optional">
          <MessageFields />
          <Space wrap size={12} style={{ width: '100%' }}>
            <Form.Item name="platform" label={t('push.form.platform')} style={{ minWidth: 160 }}>
              <Select allowClear placeholder={t('push.form.allPlatforms')} options={platformOptions(t)} data-testid="push-platform" />
            </Form.Item>
            <Form.Item name="app_version" label={t('push.form.appVersion')} style={{ minWidth: 160 }}>
              <Input placeholder={t('push.form.allVersions')} maxLength={32} data-testid="push-app-version" />
            </Form.Item>
          </Space>
          <Alert type="info" showIcon data-testid="push-count" title={count.isFetching ? t('push.public.counting') : t('push.public.reach', { count: count.data?.count ?? 0 })} />
        </Form>
      )}
    </Modal>
  );
}

/** Precision push: the chosen devices, then the result of each (sent, invalid token → device marked, failed). */
export function PrecisionPushDialog({ devices, onClose }: { devices: Row[] | null; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Message>();
  const [sendId, setSendId] = useState<number | null>(null);
  const progress = usePushProgress<PushSendDetail>(sendId ? `/push/precision/${sendId}` : null);
  const send = useApiMutation((v: Message) => api.post<PushSendAnswer>('/push/precision', { ...v, device_ids: (devices ?? []).map((d) => Number(d.id)) }), {
    invalidate: [['precision_push_device']],
    onSuccess: (a) => setSendId(a.id),
  });
  const close = () => {
    setSendId(null);
    form.resetFields();
    onClose();
  };
  const results = progress.data?.results;
  return (
    <Modal
      open={!!devices}
      title={t('push.precision.title', { count: devices?.length ?? 0 })}
      onCancel={close}
      destroyOnHidden
      width={640}
      footer={
        sendId ? (
          <Button onClick={close}>{t('push.close')}</Button>
        ) : (
          <Space>
            <Button onClick={close}>{t('push.cancel')}</Button>
            <Button type="primary" loading={send.isPending} onClick={async () => send.mutate(await form.validateFields())} data-testid="precision-push-send">
              {t('push.public.send')}
            </Button>
          </Space>
        )
      }
    >
      {sendId ? (
        <>
          {progress.data ? <ProgressLine send={progress.data} /> : null}
          <Table
            size="small"
            rowKey="device_id"
            pagination={false}
            style={{ marginTop: 12 }}
            dataSource={results ?? []}
            scroll={{ x: true }}
            data-testid="precision-results"
            columns={[
              { title: t('push.field.id'), dataIndex: 'device_id', width: 70 },
              { title: t('push.field.model'), dataIndex: 'model' },
              { title: t('push.field.phone'), dataIndex: 'phone' },
              { title: t('push.result.title'), dataIndex: 'status', render: (v: string) => <ResultTag status={v} t={t} /> },
              { title: t('push.result.error'), dataIndex: 'error', render: (v: string | null) => <PushErrorText code={v} t={t} /> },
            ]}
          />
        </>
      ) : (
        <Form form={form} layout="vertical" requiredMark="optional">
          <Typography.Paragraph type="secondary">
            {(devices ?? []).map((d) => `#${String(d.id)} ${String(d.model ?? '')}`).join(' · ')}
          </Typography.Paragraph>
          <MessageFields />
        </Form>
      )}
    </Modal>
  );
}

/** Telegram › Bind my Telegram: a one-time code (10 minutes) to send to the bot, and its deep link. */
export function BindDialog({ code, onClose }: { code: TelegramBindCodeAnswer | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal open={!!code} title={t('push.telegram.bindTitle')} onCancel={onClose} destroyOnHidden footer={<Button onClick={onClose}>{t('push.close')}</Button>}>
      {code ? (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Typography.Paragraph>{t('push.telegram.bindHelp', { bot: code.bot_username ? `@${code.bot_username}` : t('push.telegram.theBot') })}</Typography.Paragraph>
          <Typography.Title level={2} copyable={{ text: `/start ${code.code}` }} style={{ margin: 0, letterSpacing: 4 }} data-testid="bind-code">
            {code.code}
          </Typography.Title>
          {code.deep_link ? (
            <Typography.Link href={code.deep_link} target="_blank" rel="noreferrer" data-testid="bind-link">
              {t('push.telegram.openBot')}
            </Typography.Link>
          ) : null}
          <Typography.Text type="secondary">{t('push.telegram.expires', { time: formatDateTime(code.expires_at) })}</Typography.Text>
        </Space>
      ) : null}
    </Modal>
  );
}

/** The title and body of a push: what the public push and the precision push both ask for. */
function MessageFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="title" label={t('push.form.title')} rules={[{ required: true, message: t('push.form.titleRequired') }, { max: 100 }]}>
        <Input maxLength={100} data-testid="push-title" />
      </Form.Item>
      <Form.Item name="body" label={t('push.form.body')} rules={[{ required: true, message: t('push.form.bodyRequired') }, { max: 1000 }]}>
        <Input.TextArea rows={3} maxLength={1000} showCount data-testid="push-body" />
      </Form.Item>
    </>
  );
}
