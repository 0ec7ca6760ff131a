import { useState } from 'react';
import { Alert, App, Button, Form, Input, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { api } from '../../kit/api';
import { useAuth } from '../../kit/auth';
import { fieldErrors, useErrorText, useMsg } from '../../kit/messages';

/**
 * /customer/update_password (spec §5): old, new and confirmation. On success every session of the admin
 * is revoked by the server: "Successful operation", then back to sign-in.
 */
interface Values {
  old_password: string;
  new_password: string;
  confirm_password: string;
}

export default function UpdatePasswordPage() {
  const { t } = useTranslation();
  const msg = useMsg();
  const errText = useErrorText();
  const { message } = App.useApp();
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);

  const change = useMutation({
    mutationFn: (v: Values) => api.post('/auth/password', v),
    onMutate: () => setError(null),
    onSuccess: async () => {
      message.success(msg('SUCCESS'));
      await signOut({ callServer: false });
      navigate('/admin_login', { replace: true });
    },
    onError: (e) => {
      const fields = fieldErrors(e);
      if (fields.length) form.setFields(fields as never);
      else setError(errText(e));
    },
  });

  return (
    <div style={{ maxWidth: 480 }} data-testid="update-password">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('password.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('password.hint')}</Typography.Paragraph>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="password-error" />}
      <Form form={form} layout="vertical" onFinish={(v) => change.mutate(v)}>
        <Form.Item name="old_password" label={t('password.old')} rules={[{ required: true, message: msg('OLD_PASSWORD_REQUIRED') }]}>
          <Input.Password autoComplete="current-password" data-testid="password-old" />
        </Form.Item>
        <Form.Item name="new_password" label={t('password.new')} rules={[{ required: true, message: msg('NEW_PASSWORD_REQUIRED') }]}>
          <Input.Password autoComplete="new-password" data-testid="password-new" />
        </Form.Item>
        <Form.Item
          name="confirm_password"
          label={t('password.confirm')}
          dependencies={['new_password']}
          rules={[
            { required: true, message: msg('NEW_PASSWORD_REQUIRED') },
            ({ getFieldValue }) => ({
              validator: (_, v: string) =>
                !v || v === getFieldValue('new_password') ? Promise.resolve() : Promise.reject(new Error(msg('PASSWORDS_INCONSISTENT'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="password-confirm" />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="password-submit">
          {t('password.submit')}
        </Button>
      </Form>
    </div>
  );
}
