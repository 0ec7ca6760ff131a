import { useEffect, useMemo, useState } from 'react';
import { SendOutlined, SettingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Collapse, DatePicker, Descriptions, Flex, Form, Input, InputNumber, Progress, Radio, Select, Switch, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import { formatTsh, smsQuote, SMS_MAX_CHARS } from '@dau/domain';
import { SMS_RECIPIENT_STATUSES, SMS_SEND_STATUSES, smsSendResource, type SmsConfigAnswer, type SmsPreviewAnswer, type SmsRecipientRow, type SmsSendRow, type SmsTarget } from '@dau/contract/ui';
import { api, type ListAnswer } from '../../kit/api';
import { useAccess } from '../../kit/access';
import { DialogBox } from '../../kit/DialogBox';
import { ActionButton, formatDateTime, fieldOptions, ResourcePage, useApiMutation, useLocale, type FieldView, type Row } from '../../resources';
import { RECIPIENT_COLOR, smsView } from './shared';

type Kind = SmsTarget['kind'];
interface Values {
  content: string;
  kind: Kind;
  phones?: string;
  phone?: string;
  risk_level?: number;
  online_status?: number;
  bet_status?: number;
  disabled?: number;
  registered?: [Dayjs | null, Dayjs | null] | null;
}

const FILTER_ENUMS = [
  ['risk_level', 'risk_level'],
  ['online_status', 'online_status'],
  ['bet_status', 'bet_status'],
  ['disabled', 'user_disabled'],
] as const;

function targetOf(v: Values): SmsTarget {
  if (v.kind === 'one') return { kind: 'one', phone: v.phone ?? '' };
  if (v.kind === 'phones') return { kind: 'phones', phones: v.phones ?? '' };
  const filter: Record<string, unknown> = {};
  for (const [key] of FILTER_ENUMS) if (v[key] !== undefined && v[key] !== null) filter[key] = v[key];
  if (v.registered?.[0]) filter.created_at_from = v.registered[0].startOf('day').toISOString();
  if (v.registered?.[1]) filter.created_at_to = v.registered[1].add(1, 'day').startOf('day').toISOString();
  return { kind: 'filter', filter: filter as never };
}

/** What the operator sees before confirming: recipients after exclusions and scope, alphabet, parts, cost. */
function PreviewCard({ p }: { p: SmsPreviewAnswer }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div data-testid="sms-preview">
      <Descriptions
        title={t('sms.send.previewTitle')}
        size="small"
        column={{ xs: 1, sm: 2 }}
        bordered
        items={[
          { key: 'r', label: t('sms.send.recipients'), children: <strong data-testid="sms-preview-recipients">{p.recipient_count}</strong> },
          { key: 'e', label: t('sms.send.excluded'), children: <span data-testid="sms-preview-excluded">{p.excluded_count}</span> },
          ...(p.out_of_scope_count ? [{ key: 'o', label: t('sms.send.outOfScope'), children: p.out_of_scope_count }] : []),
          ...(p.invalid_count ? [{ key: 'i', label: t('sms.send.invalid'), children: `${p.invalid_count}: ${p.invalid.slice(0, 10).join(', ')}` }] : []),
          ...(p.duplicates ? [{ key: 'd', label: t('sms.send.duplicates'), children: p.duplicates }] : []),
          { key: 'a', label: t('sms.send.alphabet'), children: <span data-testid="sms-preview-encoding">{t(`sms.encoding.${p.encoding}`)}</span> },
          { key: 's', label: t('sms.send.parts'), children: <span data-testid="sms-preview-segments">{p.segments}</span> },
          { key: 'c1', label: t('sms.send.costPerPart'), children: formatTsh(p.cost_per_segment_cents, locale) },
          { key: 'c', label: t('sms.send.cost'), children: <strong data-testid="sms-preview-cost">{formatTsh(p.estimated_cost_cents, locale)}</strong> },
        ]}
      />
      {p.encoding === 'ucs2' ? <Alert style={{ marginTop: 12 }} type="info" showIcon title={t('sms.send.ucs2Hint')} /> : null}
    </div>
  );
}

/** New SMS: text, recipients, a preview (required), then confirm. */
function SendDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form);
  const content = Form.useWatch('content', form) ?? '';
  const [preview, setPreview] = useState<{ p: SmsPreviewAnswer; body: { content: string; target: SmsTarget } } | null>(null);
  const quote = useMemo(() => smsQuote(content, 1, 0), [content]);
  const ask = useApiMutation((body: { content: string; target: SmsTarget }) => api.post<SmsPreviewAnswer>('/sms/preview', body).then((p) => ({ p, body })), {
    success: false,
    onSuccess: setPreview,
  });
  const send = useApiMutation((b: { content: string; target: SmsTarget; expected_cost_cents: number }) => api.post<SmsSendRow>('/sms/sends', b), {
    success: false,
    invalidate: [['sms_send']],
    onSuccess: () => {
      void message.success(t('sms.send.sent'));
      onClose();
    },
  });
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setPreview(null);
  }, [open, form]);
  const doPreview = async () => {
    const v = await form.validateFields();
    await ask.mutateAsync({ content: v.content, target: targetOf(v) }).catch(() => undefined);
  };
  const confirm = async () => {
    if (!preview) return;
    await send.mutateAsync({ ...preview.body, expected_cost_cents: preview.p.estimated_cost_cents }).catch(() => undefined);
  };
  const enumField = (key: string, name: string): FieldView => ({ key, type: 'enum', enum: name });
  return (
    <DialogBox
      open={open}
      title={t('sms.send.title')}
      maxWidth={720}
      onClose={onClose}
      footer={
        <Flex gap={8} justify="end" wrap>
          <Button onClick={onClose}>{t('button.cancel')}</Button>
          <Button onClick={() => void doPreview()} loading={ask.isPending} data-testid="sms-preview-button">
            {t('sms.send.preview')}
          </Button>
          <Button type="primary" icon={<SendOutlined />} disabled={!preview || preview.p.recipient_count === 0} loading={send.isPending} onClick={() => void confirm()} data-testid="sms-confirm">
            {/* The confirmation names whom it reaches (all the bettors of a filter, too). */}
            {preview ? t('sms.send.confirmCount', { count: preview.p.recipient_count }) : t('sms.send.confirm')}
          </Button>
        </Flex>
      }
    >
      <Form form={form} layout="vertical" requiredMark={false} initialValues={{ kind: 'phones' }} onValuesChange={() => setPreview(null)}>
        <Form.Item
          name="content"
          label={t('sms.send.content')}
          rules={[{ required: true, whitespace: true, message: t('sms.send.contentRequired') }]}
          extra={<span data-testid="sms-counter">{t('sms.send.counter', { units: quote.units, alphabet: t(`sms.encoding.${quote.encoding}`), segments: quote.segments })}</span>}
        >
          <Input.TextArea rows={4} maxLength={SMS_MAX_CHARS} data-testid="sms-content" />
        </Form.Item>
        <Form.Item name="kind" label={t('sms.send.to')}>
          <Radio.Group optionType="button" data-testid="sms-kind" options={(['phones', 'filter', 'one'] as const).map((k) => ({ value: k, label: t(`sms.target.${k}`) }))} />
        </Form.Item>
        {kind === 'phones' ? (
          <Form.Item name="phones" label={t('sms.send.phones')} extra={t('sms.send.phonesHelp')} rules={[{ required: true, whitespace: true, message: t('sms.send.phonesRequired') }]}>
            <Input.TextArea rows={4} placeholder={'0712 345 678\n+255 754 000 111'} data-testid="sms-phones" />
          </Form.Item>
        ) : null}
        {kind === 'one' ? (
          <Form.Item name="phone" label={t('sms.send.phone')} extra={t('sms.send.phonesHelp')} rules={[{ required: true, whitespace: true, message: t('sms.send.phoneRequired') }]}>
            <Input placeholder="0712 345 678" data-testid="sms-phone" />
          </Form.Item>
        ) : null}
        {kind === 'filter' ? (
          <>
            <Typography.Paragraph type="secondary">{t('sms.send.filterHelp')}</Typography.Paragraph>
            <Flex wrap gap={12}>
              {FILTER_ENUMS.map(([key, name]) => (
                <Form.Item key={key} name={key} label={t(`field.${key}`)} style={{ minWidth: 150, flex: 1 }}>
                  <Select allowClear options={fieldOptions(enumField(key, name), locale) as never} data-testid={`sms-filter-${key}`} />
                </Form.Item>
              ))}
            </Flex>
            <Form.Item name="registered" label={t('sms.send.registered')}>
              <DatePicker.RangePicker style={{ width: '100%' }} />
            </Form.Item>
          </>
        ) : null}
      </Form>
      {preview ? <PreviewCard p={preview.p} /> : <Typography.Text type="secondary">{t('sms.send.changed')}</Typography.Text>}
    </DialogBox>
  );
}

/** Delivered of recipients, as a bar while the send runs; written of expected while a filter send's recipients are prepared. */
function SendProgress({ row }: { row: Row }) {
  const { t } = useTranslation();
  const total = Number(row.recipient_count ?? 0);
  if (row.status === 'preparing') {
    const written = Number(row.written_count ?? 0);
    return (
      <div style={{ minWidth: 150 }} data-testid={`sms-progress-${String(row.id)}`}>
        <Progress percent={total ? Math.min(100, Math.floor((written / total) * 100)) : 0} size="small" status="active" showInfo={false} strokeColor="#8c8c8c" />
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('sms.preparing', { written, total })}
        </Typography.Text>
      </div>
    );
  }
  const delivered = Number(row.delivered_count ?? 0);
  const failed = Number(row.failed_count ?? 0);
  const pct = total ? Math.floor(((delivered + failed) / total) * 100) : 0;
  return (
    <div style={{ minWidth: 150 }} data-testid={`sms-progress-${String(row.id)}`}>
      <Progress percent={pct} success={{ percent: total ? Math.floor((delivered / total) * 100) : 0 }} size="small" status={row.status === 'sending' ? 'active' : failed ? 'exception' : 'success'} showInfo={false} />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('sms.progress', { delivered, total })}
      </Typography.Text>
    </div>
  );
}

/** A send's recipients: delivered, failed with the reason, SMS status (spec §4 unused / used). */
function RecipientsReport({ sendId, running }: { sendId: number; running: boolean }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<string | undefined>();
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['sms_send', 'recipients', sendId, status, page],
    queryFn: () => api.get<ListAnswer<SmsRecipientRow>>(`/sms/sends/${sendId}/recipients`, { page, page_size: 20, ...(status ? { status } : {}) }),
    refetchInterval: running ? 2_000 : false,
  });
  return (
    <div data-testid="sms-report">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ margin: '16px 0 8px' }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('sms.report.title')}
        </Typography.Title>
        <Select
          style={{ minWidth: 150 }}
          value={status ?? ''}
          onChange={(v) => {
            setStatus(v || undefined);
            setPage(1);
          }}
          options={[{ value: '', label: t('sms.report.all') }, ...SMS_RECIPIENT_STATUSES.map((s) => ({ value: s, label: t(`sms.recipient.${s}`) }))]}
          data-testid="sms-report-status"
        />
      </Flex>
      <Table<SmsRecipientRow>
        size="small"
        rowKey="id"
        loading={q.isLoading}
        dataSource={q.data?.items ?? []}
        scroll={{ x: 'max-content' }}
        pagination={{ current: page, pageSize: 20, total: q.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
        columns={[
          { key: 'phone', dataIndex: 'phone', title: t('sms.field.phone') },
          { key: 'status', dataIndex: 'status', title: t('sms.field.status'), render: (v: string) => <Tag color={RECIPIENT_COLOR[v]}>{t(`sms.recipient.${v}`)}</Tag> },
          { key: 'failure_reason', dataIndex: 'failure_reason', title: t('sms.field.failure_reason'), render: (v: string | null) => v ?? '-' },
          { key: 'sms_status', dataIndex: 'sms_status', title: t('sms.field.sms_status'), render: (v: number) => <Tag color={v === 2 ? 'orange' : undefined}>{t(`sms.smsStatus.${v}`)}</Tag> },
          { key: 'update_time', dataIndex: 'update_time', title: t('sms.field.update_time'), render: (v: string) => formatDateTime(v) },
        ]}
      />
    </div>
  );
}

/** The Africa's Talking account: username, write-only API key, sender id, cost of a part, rate; the callback URLs. */
function ConfigCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const q = useQuery({ queryKey: ['sms_send', 'config'], queryFn: () => api.get<SmsConfigAnswer>('/sms/config') });
  const save = useApiMutation((body: Record<string, unknown>) => api.put<SmsConfigAnswer>('/sms/config', body), {
    success: false,
    invalidate: [['sms_send', 'config']],
    onSuccess: () => void message.success(t('sms.config.saved')),
  });
  const c = q.data;
  useEffect(() => {
    if (c) form.setFieldsValue({ ...c, api_key: '', cost_per_segment_cents: c.cost_per_segment_cents / 100 });
  }, [c, form]);
  if (!c) return null;
  return (
    <Collapse
      style={{ marginBottom: 16 }}
      items={[
        {
          key: 'config',
          label: (
            <span data-testid="sms-config-toggle">
              <SettingOutlined /> {t('sms.config.title')}
            </span>
          ),
          children: (
            <Form
              form={form}
              layout="vertical"
              onFinish={(v: Record<string, unknown>) =>
                save.mutate({
                  username: v.username, sender_id: v.sender_id ?? '', enabled: v.enabled, rate_per_second: v.rate_per_second,
                  cost_per_segment_cents: Math.round(Number(v.cost_per_segment_cents) * 100), ...(v.api_key ? { api_key: v.api_key } : {}),
                })
              }
            >
              <Flex wrap gap={12}>
                <Form.Item name="username" label={t('sms.config.username')} rules={[{ required: true }]} style={{ flex: 1, minWidth: 180 }}>
                  <Input maxLength={64} />
                </Form.Item>
                <Form.Item name="api_key" label={t('sms.config.api_key')} extra={c.api_key_set ? t('sms.config.apiKeySet') : t('sms.config.apiKeyEmpty')} style={{ flex: 1, minWidth: 180 }}>
                  <Input.Password autoComplete="new-password" maxLength={256} data-testid="sms-config-key" />
                </Form.Item>
                <Form.Item name="sender_id" label={t('sms.config.sender_id')} style={{ flex: 1, minWidth: 140 }}>
                  <Input maxLength={11} />
                </Form.Item>
              </Flex>
              <Flex wrap gap={12}>
                <Form.Item name="cost_per_segment_cents" label={t('sms.config.cost_per_segment_cents')} style={{ flex: 1, minWidth: 140 }}>
                  <InputNumber min={0} max={100_000} step={0.01} addonAfter="TSh" style={{ width: '100%' }} />
                </Form.Item>
                <Form.Item name="rate_per_second" label={t('sms.config.rate_per_second')} style={{ flex: 1, minWidth: 140 }}>
                  <InputNumber min={1} max={10_000} style={{ width: '100%' }} />
                </Form.Item>
                <Form.Item name="enabled" label={t('sms.config.enabled')} valuePropName="checked" style={{ minWidth: 140 }}>
                  <Switch />
                </Form.Item>
              </Flex>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }}>
                {t('sms.config.callbacks')}
              </Typography.Paragraph>
              <Descriptions
                size="small"
                column={1}
                items={[
                  { key: 'd', label: t('sms.config.delivery_report_url'), children: <Typography.Text copyable style={{ wordBreak: 'break-all' }}>{c.delivery_report_url}</Typography.Text> },
                  { key: 'i', label: t('sms.config.incoming_url'), children: <Typography.Text copyable style={{ wordBreak: 'break-all' }}>{c.incoming_url}</Typography.Text> },
                ]}
              />
              <Button type="primary" htmlType="submit" loading={save.isPending} style={{ marginTop: 12 }} data-testid="sms-config-save">
                {t('action.save')}
              </Button>
            </Form>
          ),
        },
      ]}
    />
  );
}

/** SMS › Send: the history of my branch's sends with their progress and delivery report; new SMS with a preview; settings. */
export default function SmsSendPage() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const [sending, setSending] = useState(false);
  const def = useMemo(
    () =>
      smsView(smsSendResource, {
        content: { keep: true, render: (v) => <Typography.Paragraph ellipsis={{ rows: 2, tooltip: String(v ?? '') }} style={{ margin: 0, maxWidth: 320 }}>{String(v ?? '')}</Typography.Paragraph> },
        delivered_count: { keep: true, render: (_v, row) => <SendProgress row={row} /> },
        status: { keep: true, options: SMS_SEND_STATUSES.map((s) => ({ value: s, label: t(`sms.status.${s}`) })) },
      }),
    [t],
  );
  const running = (status: unknown) => status === 'sending' || status === 'preparing';
  const poll = (answer: ListAnswer<Row> | undefined) => (answer?.items.some((r) => running(r.status)) ? 2_000 : 30_000);
  return (
    <ResourcePage
      def={def}
      intro={can('sms_send', 'config') ? <ConfigCard /> : undefined}
      detailColumns={2}
      detailTitle={(row) => `SMS #${String(row.id)}`}
      detailExtra={(row) => <RecipientsReport sendId={Number(row.id)} running={running(row.status)} />}
      toolbar={() => <ActionButton action="send" page="sms_send" type="primary" icon={<SendOutlined />} testId="sms-send" onClick={() => setSending(true)} />}
      pollInterval={poll}
    >
      <SendDialog open={sending} onClose={() => setSending(false)} />
    </ResourcePage>
  );
}
