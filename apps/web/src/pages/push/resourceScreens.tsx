import { useMemo, useState, type ComponentType } from 'react';
import { LinkOutlined, NotificationOutlined, SendOutlined } from '@ant-design/icons';
import { Alert, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { pushConfigResource, telegramConfigResource, type TelegramBindCodeAnswer, type TelegramMeAnswer } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { useAccess } from '../../kit/access';
import { ActionButton, formatDateTime, ResourcePage, SettingsCard, useApiMutation, type FieldView, type Row } from '../../resources';
import { BindDialog, PrecisionPushDialog, PublicPushDialog } from './dialogs';
import { InvalidTag, PushErrorText, PLATFORM_TEXT, SUBJECT_TEXT, textOf, platformOptions, precisionDeviceResource, pushDeviceResource, pushView, telegramBindingResource } from './shared';

const clamp = (v: unknown) =>
  v ? (
    <Typography.Paragraph ellipsis={{ rows: 2, tooltip: String(v) }} style={{ margin: 0, maxWidth: 320 }}>
      {String(v)}
    </Typography.Paragraph>
  ) : (
    '-'
  );

function useDeviceView(resource: typeof pushDeviceResource) {
  const { t } = useTranslation();
  return useMemo(() => {
    const hints: Record<string, Partial<FieldView>> = {
      last_title: { keep: true, render: (v) => (v ? <Typography.Text strong>{String(v)}</Typography.Text> : '-') },
      last_body: { render: clamp },
      model: { keep: true },
      platform: { options: platformOptions(t), render: (v) => <Tag>{textOf(PLATFORM_TEXT, v, t)}</Tag> },
      invalid_reason: { render: (v) => <PushErrorText code={v == null ? null : String(v)} t={t} /> },
      invalid: { keep: true, render: (v, row) => <span data-testid={`device-invalid-${String(row.id)}`}><InvalidTag invalid={v} t={t} /></span> },
    };
    return pushView(resource, hints);
  }, [t, resource]);
}

/** The settings card of a page's `edit` holders (the key file / bot token is write-only). */
function Settings({ page, def, description }: { page: string; def: typeof pushConfigResource | typeof telegramConfigResource; description: string }) {
  const { can } = useAccess();
  const view = useMemo(() => ({ ...def, description, fields: def.fields.map((f) => ({ ...f })) }), [def, description]);
  if (!can(page, 'edit')) return null;
  return (
    <div style={{ marginTop: 24 }}>
      <SettingsCard def={view} />
    </div>
  );
}

/** Messaging › Push devices: the registered devices of my branch and the public push (all or a segment). */
function DeviceScreen() {
  const { t } = useTranslation();
  const def = useDeviceView(pushDeviceResource);
  const [open, setOpen] = useState(false);
  return (
    <>
      <ResourcePage
        def={def}
        detailColumns={2}
        toolbar={() => (
          <ActionButton action="push" page="push_device" type="primary" icon={<NotificationOutlined />} testId="public-push" onClick={() => setOpen(true)}>
            {t('push.public.open')}
          </ActionButton>
        )}
      >
        <PublicPushDialog open={open} onClose={() => setOpen(false)} />
      </ResourcePage>
      <Settings page="push_device" def={pushConfigResource} description="push.describe.push_config" />
    </>
  );
}

/** Messaging › Targeted push: pick one or a few devices, push, see the result of each. */
function PrecisionScreen() {
  const { t } = useTranslation();
  const def = useDeviceView(precisionDeviceResource);
  const [devices, setDevices] = useState<Row[] | null>(null);
  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      selectable
      toolbar={({ selected, clearSelection }) => (
        <ActionButton
          action="push"
          page="precision_push_device"
          type="primary"
          icon={<SendOutlined />}
          testId="precision-push"
          disabled={!selected.length || selected.length > 50}
          onClick={() => {
            setDevices(selected);
            clearSelection();
          }}
        >
          {t('push.precision.open', { count: selected.length })}
        </ActionButton>
      )}
    >
      <PrecisionPushDialog devices={devices} onClose={() => setDevices(null)} />
    </ResourcePage>
  );
}

/** My own binding, above the list. */
function MyBinding() {
  const { t } = useTranslation();
  const me = useQuery({ queryKey: ['telegram_bot_binding', 'me'], queryFn: () => api.get<TelegramMeAnswer>('/telegram/me') });
  const b = me.data?.binding;
  if (!me.data) return null;
  return (
    <Alert
      type={b ? 'success' : 'info'}
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="my-binding"
      title={b ? t('push.telegram.mine', { name: b.first_name, username: b.username ? `@${b.username}` : '', time: formatDateTime(b.bound_at) }) : t('push.telegram.notMine')}
    />
  );
}

/** System › Telegram bot bindings: admins' and bettors' Telegram accounts of my branch; unbind; bind my own. */
function BindingScreen() {
  const { t } = useTranslation();
  const [code, setCode] = useState<TelegramBindCodeAnswer | null>(null);
  const ask = useApiMutation(() => api.post<TelegramBindCodeAnswer>('/telegram/bind-code'), { success: false, onSuccess: setCode });
  const def = useMemo(
    () =>
      pushView(telegramBindingResource, {
        first_name: { keep: true },
        username: { render: (v) => (v ? `@${String(v)}` : '-') },
        subject: { keep: true, options: [{ value: 'admin', label: t('push.subject.admin') }, { value: 'bettor', label: t('push.subject.bettor') }], render: (v) => <Tag color={v === 'admin' ? 'blue' : 'green'}>{textOf(SUBJECT_TEXT, v, t)}</Tag> },
        account: { keep: true },
      }),
    [t],
  );
  return (
    <>
      <ResourcePage
        def={def}
        intro={<MyBinding />}
        toolbar={() => (
          <ActionButton action="bind" page="telegram_bot_binding" type="primary" icon={<LinkOutlined />} testId="telegram-bind" loading={ask.isPending} onClick={() => ask.mutate(undefined)}>
            {t('push.telegram.bindMine')}
          </ActionButton>
        )}
      >
        <BindDialog code={code} onClose={() => setCode(null)} />
      </ResourcePage>
      <Settings page="telegram_bot_binding" def={telegramConfigResource} description="push.describe.telegram_config" />
    </>
  );
}

export const screens: Record<string, ComponentType> = {
  push_device: DeviceScreen,
  precision_push_device: PrecisionScreen,
  telegram_bot_binding: BindingScreen,
};

