import { useEffect, useState } from 'react';
import { Alert, Button, DatePicker, Flex, Form, Input, InputNumber, Modal, Radio, Select, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import type { MessageSendAnswer, MessageTarget, PhoneResolution, RecipientCountAnswer } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { useAccess } from '../../kit/access';
import { fieldOptions, useApiMutation, useLocale, type FieldView } from '../../resources';
import { useAdminOptions } from '../system/options';
import { MessageDialog } from './shared';

type Kind = MessageTarget['kind'];
interface Values {
  title: string;
  content: string;
  kind: Exclude<Kind, 'bettors'>;
  phones?: string;
  risk_level?: number;
  online_status?: number;
  bet_status?: number;
  disabled?: number;
  registered?: [Dayjs | null, Dayjs | null] | null;
  agent_id?: number;
  when: 'now' | 'later';
  send_at?: Dayjs;
}

/** The bettors list's enumerated filters offered here: key, enumeration, label. */
const FILTER_ENUMS = [
  ['risk_level', 'risk_level', 'field.risk_level'],
  ['online_status', 'online_status', 'field.online_status'],
  ['bet_status', 'bet_status', 'field.bet_status'],
  ['disabled', 'user_disabled', 'field.disabled'],
] as const;

/** The body the server takes, from the form's values. */
function targetOf(v: Values): MessageTarget {
  switch (v.kind) {
    case 'all':
      return { kind: 'all' };
    case 'phones':
      return { kind: 'phones', phones: v.phones ?? '' };
    case 'branch':
      return { kind: 'branch', agent_id: Number(v.agent_id) };
    case 'filter': {
      const filter: Record<string, unknown> = {};
      for (const [key] of FILTER_ENUMS) if (v[key] !== undefined && v[key] !== null) filter[key] = v[key];
      if (v.registered?.[0]) filter.created_at_from = v.registered[0].startOf('day').toISOString();
      if (v.registered?.[1]) filter.created_at_to = v.registered[1].add(1, 'day').startOf('day').toISOString();
      return { kind: 'filter', filter };
    }
  }
}

/** What a pasted list resolved to: found in my branch, not found there, not phone numbers. */
function PhoneReport({ report }: { report: PhoneResolution }) {
  const { t } = useTranslation();
  const shown = (xs: string[]) => (
    <Flex wrap gap={4} style={{ marginTop: 4 }}>
      {xs.slice(0, 30).map((x) => (
        <Tag key={x}>{x}</Tag>
      ))}
      {xs.length > 30 ? <Typography.Text type="secondary">{t('messaging.send.more', { count: xs.length - 30 })}</Typography.Text> : null}
    </Flex>
  );
  return (
    <Alert
      type={report.found ? (report.not_found.length || report.invalid.length ? 'warning' : 'success') : 'error'}
      showIcon
      data-testid="phone-report"
      title={t('messaging.send.found', { count: report.found })}
      description={
        <>
          {report.not_found.length ? (
            <div data-testid="phone-not-found">
              {t('messaging.send.notFound', { count: report.not_found.length })}
              {shown(report.not_found)}
            </div>
          ) : null}
          {report.invalid.length ? (
            <div data-testid="phone-invalid" style={{ marginTop: 8 }}>
              {t('messaging.send.invalid', { count: report.invalid.length })}
              {shown(report.invalid)}
            </div>
          ) : null}
          {report.duplicates ? <div style={{ marginTop: 8 }}>{t('messaging.send.duplicates', { count: report.duplicates })}</div> : null}
        </>
      }
    />
  );
}

/** Send an in-app message: to all bettors of my branch, a phone list, a filter of the bettors list or a branch; now or later. */
export function SendDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { can } = useAccess();
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form);
  const when = Form.useWatch('when', form);
  const phones = Form.useWatch('phones', form) ?? '';
  const [report, setReport] = useState<PhoneResolution | null>(null);
  const agents = useAdminOptions(can('administrators'));
  const check = useApiMutation((phones: string) => api.post<PhoneResolution>('/messaging/recipients/resolve', { phones }), { success: false, onSuccess: setReport });
  const send = useApiMutation((body: unknown) => api.post<MessageSendAnswer>('/messaging/messages', body), {
    invalidate: [['message_list']],
    onSuccess: () => onClose(),
  });
  const counting = useApiMutation((target: MessageTarget) => api.post<RecipientCountAnswer>('/messaging/recipients/count', { target }), { success: false });

  /**
   * A list of phones names its recipients before sending (the check); a send to all bettors, a filter or
   * a branch is confirmed once the operator has read how many bettors it reaches now.
   */
  const confirmAndSend = async (v: Values) => {
    const body = { title: v.title, content: v.content, target: targetOf(v), ...(v.when === 'later' && v.send_at ? { send_at: v.send_at.toISOString() } : {}) };
    if (body.target.kind === 'phones') return send.mutateAsync(body);
    const { count } = await counting.mutateAsync(body.target);
    return new Promise<void>((resolve) => {
      Modal.confirm({
        title: t('messaging.send.confirmTitle'),
        content: <span data-testid="send-confirm-count">{t(body.target.kind === 'all' ? 'messaging.send.confirmAll' : 'messaging.send.confirmSome', { count })}</span>,
        okText: t('button.send'),
        okButtonProps: { 'data-testid': 'send-confirm-ok' } as never,
        onOk: () => send.mutateAsync(body).then(() => resolve(), () => resolve()),
        onCancel: () => resolve(),
      });
    });
  };

  // Opened: a fresh form (before the operator types).
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setReport(null);
  }, [open, form]);
  const enumField = (key: string, name: string): FieldView => ({ key, type: 'enum', enum: name });

  return (
    <MessageDialog
      open={open}
      title={t('messaging.send.title')}
      maxWidth={680}
      okText={t('button.send')}
      testId="send"
      form={form}
      initialValues={{ kind: 'phones', when: 'now' }}
      contentLabel={t('messaging.field.content')}
      busy={send.isPending || counting.isPending}
      onClose={onClose}
      onSend={confirmAndSend}
    >
      <Form.Item name="kind" label={t('messaging.send.to')}>
        <Radio.Group
          optionType="button"
          data-testid="send-kind"
          options={(['phones', 'filter', 'branch', 'all'] as const).map((k) => ({ value: k, label: t(`messaging.target.${k}`) }))}
          onChange={() => setReport(null)}
        />
      </Form.Item>
      {kind === 'all' ? <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('messaging.send.allHelp')} /> : null}
      {kind === 'phones' ? (
        <>
          <Form.Item name="phones" label={t('messaging.send.phones')} extra={t('messaging.send.phonesHelp')} rules={[{ required: true, whitespace: true, message: t('messaging.send.phonesRequired') }]}>
            <Input.TextArea rows={4} placeholder={'0712 345 678\n+255 754 000 111'} data-testid="send-phones" onChange={() => setReport(null)} />
          </Form.Item>
          <Space direction="vertical" style={{ width: '100%', marginBottom: 16 }}>
            <Button onClick={() => check.mutate(phones)} loading={check.isPending} disabled={!phones.trim()} data-testid="send-check">
              {t('messaging.send.check')}
            </Button>
            {report ? <PhoneReport report={report} /> : null}
          </Space>
        </>
      ) : null}
      {kind === 'filter' ? (
        <>
          <Typography.Paragraph type="secondary">{t('messaging.send.filterHelp')}</Typography.Paragraph>
          <Flex wrap gap={12}>
            {FILTER_ENUMS.map(([key, name, label]) => (
              <Form.Item key={key} name={key} label={t(label)} style={{ minWidth: 150, flex: 1 }}>
                <Select allowClear options={fieldOptions(enumField(key, name), locale) as never} data-testid={`send-filter-${key}`} />
              </Form.Item>
            ))}
          </Flex>
          <Form.Item name="registered" label={t('messaging.send.registered')}>
            <DatePicker.RangePicker style={{ width: '100%' }} />
          </Form.Item>
        </>
      ) : null}
      {kind === 'branch' ? (
        <Form.Item name="agent_id" label={t('messaging.send.branch')} extra={t('messaging.send.branchHelp')} rules={[{ required: true, message: t('messaging.send.branchRequired') }]}>
          {agents.length ? (
            <Select showSearch optionFilterProp="label" options={agents as never} data-testid="send-agent" />
          ) : (
            <InputNumber min={1} style={{ width: '100%' }} data-testid="send-agent" />
          )}
        </Form.Item>
      ) : null}
      <Form.Item name="when" label={t('messaging.send.when')}>
        <Radio.Group options={[{ value: 'now', label: t('messaging.send.now') }, { value: 'later', label: t('messaging.send.later') }]} data-testid="send-when" />
      </Form.Item>
      {when === 'later' ? (
        <Form.Item
          name="send_at"
          label={t('messaging.field.send_at')}
          rules={[
            { required: true, message: t('messaging.send.sendAtRequired') },
            { validator: (_r, v: Dayjs | undefined) => (!v || v.valueOf() > Date.now() ? Promise.resolve() : Promise.reject(new Error(t('messaging.send.sendAtFuture')))) },
          ]}
        >
          <DatePicker showTime style={{ width: '100%' }} data-testid="send-at" />
        </Form.Item>
      ) : null}
    </MessageDialog>
  );
}
