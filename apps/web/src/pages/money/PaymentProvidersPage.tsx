import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Drawer, Empty, Form, Input, Select, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PaymentProviderRow, PaymentProvidersAnswer, PaymentRoutingAnswer } from '@dau/contract';
import { api } from '../../kit/api';
import { useAccess } from '../../kit/access';
import { enumLabel } from '../../kit/labels';
import { useDialogWidth } from '../../kit/dialog';
import { PageHeader } from '../../resources/PageHeader';
import { useApiMutation } from '../../resources/data';

const PAGE = 'payment_providers';
const PAY_TYPES = [3, 4, 6, 7] as const;
const KEY = [PAGE] as const;

/**
 * Users › Mobile money providers (issue 28): where each provider's API is (the built-in sandbox or its
 * production base URL), its settings, which credentials are stored, and which provider carries each pay
 * type. Every change waits for a second admin; credentials are write-only.
 */
export default function PaymentProvidersPage() {
  const { t } = useTranslation();
  const providers = useQuery({ queryKey: [...KEY, 'providers'], queryFn: () => api.get<PaymentProvidersAnswer>('/payments/providers') });
  const [editing, setEditing] = useState<PaymentProviderRow | null>(null);
  const list = providers.data?.providers ?? [];
  return (
    <div>
      <PageHeader title={t('menu.payment_providers')} description={t('providers.describe')} />
      {providers.isError ? (
        <Alert type="error" showIcon title={t('providers.loadFailed')} action={<Button onClick={() => void providers.refetch()}>{t('providers.retry')}</Button>} />
      ) : providers.isLoading ? (
        <Skeleton active data-testid="providers-loading" />
      ) : !list.length ? (
        <Empty description={t('providers.none')} />
      ) : (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <RoutingCard providers={list} />
          {list.map((p) => (
            <ProviderCard key={p.provider} row={p} onEdit={() => setEditing(p)} />
          ))}
        </Space>
      )}
      <EditDrawer row={editing} onClose={() => setEditing(null)} />
    </div>
  );
}

function ProviderCard({ row, onEdit }: { row: PaymentProviderRow; onEdit: () => void }) {
  const { t, i18n } = useTranslation();
  const { can } = useAccess();
  const sandbox = row.base_url === null;
  return (
    <Card
      data-testid={`provider-${row.provider}`}
      title={
        <Space wrap>
          <span>{row.name}</span>
          <Tag color={sandbox ? 'gold' : 'green'}>{sandbox ? t('providers.sandbox') : t('providers.production')}</Tag>
        </Space>
      }
      extra={can(PAGE, 'edit') ? <Button onClick={onEdit} data-testid={`provider-edit-${row.provider}`}>{t('providers.edit')}</Button> : null}
    >
      <Descriptions size="small" column={{ xs: 1, md: 2 }} bordered>
        <Descriptions.Item label={t('providers.baseUrl')}>
          <Typography.Text style={{ wordBreak: 'break-all' }}>{row.base_url ?? row.sandbox_url}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('providers.carries')}>
          {row.carries.length ? row.carries.map((p) => <Tag key={p}>{enumLabel('pay_type', p, i18n.language)}</Tag>) : <Typography.Text type="secondary">{t('providers.carriesNone')}</Typography.Text>}
        </Descriptions.Item>
        <Descriptions.Item label={t('providers.settings')} span={2}>
          {Object.keys(row.settings).length ? (
            <Space wrap>
              {Object.entries(row.settings).map(([k, v]) => (
                <Tag key={k}>
                  {k}: {v}
                </Tag>
              ))}
            </Space>
          ) : (
            '—'
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('providers.secrets')} span={2}>
          <Space wrap>
            {row.secrets_set.map((k) => (
              <Tag key={k} color="blue">
                {k} · {t('providers.stored')}
              </Tag>
            ))}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('providers.callbacks')} span={2}>
          {Object.keys(row.callback_urls).length ? (
            <Space direction="vertical" size={2}>
              {Object.entries(row.callback_urls).map(([p, url]) => (
                <Typography.Text key={p} copyable style={{ wordBreak: 'break-all' }}>
                  {enumLabel('pay_type', Number(p), i18n.language)}: {url}
                </Typography.Text>
              ))}
            </Space>
          ) : (
            <Typography.Text type="secondary">{t('providers.noCallbacks')}</Typography.Text>
          )}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** Which provider carries each pay type: the operator directly, or the aggregator. */
function RoutingCard({ providers }: { providers: PaymentProviderRow[] }) {
  const { t, i18n } = useTranslation();
  const { can } = useAccess();
  const { modal, message } = App.useApp();
  const routing = useQuery({ queryKey: [...KEY, 'routing'], queryFn: () => api.get<PaymentRoutingAnswer>('/payments/routing') });
  const [draft, setDraft] = useState<Record<string, string>>({});
  useEffect(() => {
    if (routing.data) setDraft(routing.data.provider_of);
  }, [routing.data]);
  const save = useApiMutation((body: { provider_of: Record<string, string> }) => api.put<PaymentRoutingAnswer>('/payments/routing', body), {
    success: false,
    invalidate: [[...KEY]],
    onSuccess: () => void message.success(t('providers.routingSaved')),
  });
  const changed = Object.entries(draft).filter(([p, id]) => routing.data?.provider_of[p] !== id);
  const name = (id: string) => providers.find((p) => p.provider === id)?.name ?? id;
  const submit = () =>
    modal.confirm({
      title: t('providers.routingConfirmTitle'),
      content: (
        <ul style={{ paddingInlineStart: 18, margin: 0 }}>
          {changed.map(([p, id]) => (
            <li key={p}>{t('providers.routingConfirmLine', { payType: enumLabel('pay_type', Number(p), i18n.language), provider: name(id) })}</li>
          ))}
        </ul>
      ),
      okText: t('providers.save'),
      okButtonProps: { 'data-testid': 'routing-confirm' } as never,
      onOk: () => save.mutateAsync({ provider_of: Object.fromEntries(changed) }),
    });
  return (
    <Card title={t('providers.routing')} data-testid="provider-routing">
      <Table
        size="small"
        pagination={false}
        rowKey="payType"
        loading={routing.isLoading}
        dataSource={PAY_TYPES.map((payType) => ({ payType }))}
        columns={[
          { title: t('providers.payType'), dataIndex: 'payType', render: (p: number) => enumLabel('pay_type', p, i18n.language) },
          {
            title: t('providers.provider'),
            dataIndex: 'payType',
            key: 'provider',
            render: (p: number) => (
              <Select
                style={{ minWidth: 200 }}
                disabled={!can(PAGE, 'edit')}
                value={draft[String(p)]}
                onChange={(v) => setDraft((d) => ({ ...d, [String(p)]: v }))}
                options={providers.filter((x) => x.pay_types.includes(p)).map((x) => ({ value: x.provider, label: x.name }))}
                data-testid={`routing-${p}`}
              />
            ),
          },
        ]}
      />
      {can(PAGE, 'edit') ? (
        <Space style={{ marginTop: 12 }}>
          <Button type="primary" disabled={!changed.length} loading={save.isPending} onClick={submit} data-testid="routing-save">
            {t('providers.save')}
          </Button>
          <Typography.Text type="secondary">{t('providers.twoPeople')}</Typography.Text>
        </Space>
      ) : null}
    </Card>
  );
}

/** Base URL (empty: the built-in sandbox), settings, and write-only credentials (empty: keep). */
function EditDrawer({ row, onClose }: { row: PaymentProviderRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [form] = Form.useForm();
  const width = useDialogWidth(560);
  const save = useApiMutation((body: Record<string, unknown>) => api.put<PaymentProviderRow>(`/payments/providers/${row!.provider}`, body), {
    success: false,
    invalidate: [[...KEY]],
    onSuccess: () => {
      void message.success(t('providers.saved'));
      onClose();
    },
  });
  useEffect(() => {
    if (row) form.setFieldsValue({ base_url: row.base_url ?? '', settings: row.settings, secrets: Object.fromEntries(row.secrets_set.map((k) => [k, ''])) });
  }, [row, form]);
  const submit = (v: { base_url: string; settings: Record<string, string>; secrets: Record<string, string> }) => {
    const body = {
      base_url: v.base_url.trim() || null,
      settings: v.settings ?? {},
      secrets: Object.fromEntries(Object.entries(v.secrets ?? {}).filter(([, x]) => x)),
    };
    modal.confirm({
      title: t('providers.confirmTitle', { name: row?.name ?? '' }),
      content: body.base_url ? t('providers.confirmProduction', { url: body.base_url }) : t('providers.confirmSandbox'),
      okText: t('providers.save'),
      okButtonProps: { 'data-testid': 'provider-confirm' } as never,
      onOk: () => save.mutateAsync(body),
    });
  };
  return (
    <Drawer open={!!row} onClose={onClose} width={width} title={row ? t('providers.editTitle', { name: row.name }) : ''} destroyOnHidden>
      {row ? (
        <Form form={form} layout="vertical" onFinish={submit}>
          <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('providers.twoPeople')} />
          <Form.Item
            name="base_url"
            label={t('providers.baseUrl')}
            extra={t('providers.baseUrlHint', { url: row.production_base_url })}
            rules={[{ pattern: /^$|^https?:\/\/\S+$/, message: t('providers.baseUrlInvalid') }]}
          >
            <Input placeholder={row.production_base_url} maxLength={300} data-testid="provider-base-url" />
          </Form.Item>
          {Object.keys(row.settings).map((k) => (
            <Form.Item key={k} name={['settings', k]} label={k}>
              <Input maxLength={300} />
            </Form.Item>
          ))}
          {row.secrets_set.map((k) => (
            <Form.Item key={k} name={['secrets', k]} label={k} extra={t('providers.secretKeep')}>
              <Input.Password autoComplete="new-password" maxLength={8000} data-testid={`provider-secret-${k}`} />
            </Form.Item>
          ))}
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="provider-save">
            {t('providers.save')}
          </Button>
        </Form>
      ) : null}
    </Drawer>
  );
}
