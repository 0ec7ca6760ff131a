import { useMemo, useState, type ComponentType } from 'react';
import { ImportOutlined } from '@ant-design/icons';
import { App, Form, Input, Modal, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { SMS_EXCLUSION_SOURCES, smsExclusionResource, type SmsImportAnswer } from '@dau/contract/ui';
import { api } from '../../kit/api';
import { useDialogWidth } from '../../kit/dialog';
import { ActionButton, ResourcePage, useApiMutation } from '../../resources';
import { smsView } from './shared';

const SOURCE_COLOR: Record<string, string> = { manual: 'blue', import: 'purple', stop: 'red' };

/** Pastes a list (or a CSV column) of numbers into the no-send list. */
function ImportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const width = useDialogWidth(560);
  const [form] = Form.useForm<{ text: string }>();
  const run = useApiMutation((text: string) => api.post<SmsImportAnswer>('/sms/exclusions/import', { text }), {
    success: false,
    invalidate: [['no_send_sms']],
    onSuccess: (a) => {
      void message.success(t('sms.import.done', { added: a.added, already: a.already, invalid: a.invalid_count }));
      onClose();
    },
  });
  return (
    <Modal
      open={open}
      title={t('sms.import.title')}
      width={width}
      onCancel={onClose}
      okText={t('button.import')}
      okButtonProps={{ loading: run.isPending, 'data-testid': 'sms-import-submit' } as never}
      onOk={async () => {
        const v = await form.validateFields();
        await run.mutateAsync(v.text).catch(() => undefined);
      }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" requiredMark={false}>
        <Form.Item name="text" label={t('sms.import.text')} extra={t('sms.import.help')} rules={[{ required: true, whitespace: true, message: t('sms.import.required') }]}>
          <Input.TextArea rows={8} placeholder={'0712 345 678\n+255 754 000 111'} data-testid="sms-import-text" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** SMS › No-send numbers: add one (any local form), import a list, remove; STOP replies land here. */
function NoSendScreen() {
  const { t } = useTranslation();
  const [importing, setImporting] = useState(false);
  const def = useMemo(
    () =>
      smsView(smsExclusionResource, {
        phone: { keep: true, help: 'sms.send.phonesHelp' },
        source: {
          options: SMS_EXCLUSION_SOURCES.map((s) => ({ value: s, label: t(`sms.source.${s}`) })),
          render: (v) => <Tag color={SOURCE_COLOR[String(v)]}>{t(`sms.source.${String(v)}`)}</Tag>,
        },
      }),
    [t],
  );
  return (
    <ResourcePage
      def={def}
      detailTitle={(row) => String(row.phone ?? '')}
      toolbar={() => <ActionButton action="import" page="no_send_sms" icon={<ImportOutlined />} testId="sms-import" onClick={() => setImporting(true)} />}
    >
      <ImportDialog open={importing} onClose={() => setImporting(false)} />
    </ResourcePage>
  );
}

/** The SMS screens built from declarations (packages/contract/src/sms-resources.ts). */
export const screens: Record<string, ComponentType> = {
  no_send_sms: NoSendScreen,
};
