import type { ReactNode } from 'react';
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDialogWidth } from '../../kit/dialog';
import { useFeedback } from '../../resources';

export interface Revealed {
  account: string;
  password: string;
}

/**
 * A generated password, shown once with a copy button ("Copied successfully"); it cannot be shown again.
 * `notice` and `accountLabel` adapt the texts to whose password it is (default: an administrator's).
 */
export function OneTimePassword({
  revealed,
  onClose,
  notice,
  accountLabel,
}: {
  revealed: Revealed | null;
  onClose(): void;
  notice?: ReactNode;
  accountLabel?: ReactNode;
}) {
  const { t } = useTranslation();
  const { ok } = useFeedback();
  const width = useDialogWidth(520);
  return (
    <Modal
      open={!!revealed}
      title={t('admin.passwordTitle')}
      width={width}
      onCancel={onClose}
      mask={{ closable: false }}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="password-done">
          {t('admin.passwordDone')}
        </Button>
      }
    >
      <Alert type="warning" showIcon title={notice ?? t('admin.passwordOnce')} style={{ marginBottom: 16 }} />
      <Descriptions
        bordered
        size="small"
        column={1}
        items={[
          { key: 'account', label: accountLabel ?? t('field.account'), children: revealed?.account },
          {
            key: 'password',
            label: t('field.password'),
            children: (
              <Typography.Text code copyable={{ text: revealed?.password, onCopy: () => ok('COPIED') }} data-testid="generated-password">
                {revealed?.password}
              </Typography.Text>
            ),
          },
        ]}
      />
    </Modal>
  );
}
