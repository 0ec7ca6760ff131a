import { useState } from 'react';
import { Alert, App, Button, Flex, Form, Input, Result, Skeleton, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { RegisterConfig } from '@dau/contract';
import { api } from '../../kit/api';
import { fieldErrors, useErrorText, useMsg } from '../../kit/messages';
import { AuthLayout } from './AuthLayout';

/**
 * /admin_register (spec §2, §5): allowed or not by the default subscriber config. When allowed: account,
 * password, confirmation (must match; must differ from the account) and an optional invitation code.
 */
interface Values {
  account: string;
  password: string;
  confirm_password: string;
  invitation_code?: string;
}

export default function RegisterPage() {
  const { t } = useTranslation();
  const msg = useMsg();
  const errText = useErrorText();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const config = useQuery({ queryKey: ['register-config'], queryFn: () => api.get<RegisterConfig>('/auth/register-config') });

  const register = useMutation({
    mutationFn: (v: Values) =>
      api.post('/auth/register', {
        account: v.account.trim(),
        password: v.password,
        confirm_password: v.confirm_password,
        ...(v.invitation_code?.trim() ? { invitation_code: v.invitation_code.trim() } : {}),
      }),
    onMutate: () => setError(null),
    onSuccess: () => {
      message.success(t('register.success'));
      navigate('/admin_login');
    },
    onError: (e) => {
      const fields = fieldErrors(e);
      if (fields.length) form.setFields(fields as never);
      else setError(errText(e));
    },
  });

  const backToLogin = (
    <Link to="/admin_login" data-testid="register-back">
      {t('register.haveAccount')}
    </Link>
  );

  let body;
  if (config.isPending) body = <Skeleton active />;
  else if (config.isError)
    body = (
      <Result
        status="warning"
        title={errText(config.error, 'LOAD_FAILED')}
        extra={<Button onClick={() => void config.refetch()}>{t('common.retry')}</Button>}
      />
    );
  else if (!config.data.allow_registration)
    body = (
      <div data-testid="register-disabled">
        <Result status="info" title={msg('REGISTER_DISABLED')} subTitle={config.data.no_registration_tip || undefined} extra={backToLogin} />
      </div>
    );
  else
    body = (
      <>
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
        <Form form={form} layout="vertical" requiredMark="optional" onFinish={(v) => register.mutate(v)}>
          <Form.Item name="account" label={t('register.account')} rules={[{ required: true, whitespace: true, message: msg('LOGIN_USERNAME_REQUIRED') }]}>
            <Input autoComplete="username" maxLength={32} data-testid="register-account" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('register.password')}
            dependencies={['account']}
            rules={[
              { required: true, message: msg('LOGIN_PASSWORD_REQUIRED') },
              ({ getFieldValue }) => ({
                validator: (_, v: string) =>
                  v && v === (getFieldValue('account') ?? '').trim()
                    ? Promise.reject(new Error(msg('REGISTER_ACCOUNT_EQUALS_PASSWORD')))
                    : Promise.resolve(),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" data-testid="register-password" />
          </Form.Item>
          <Form.Item
            name="confirm_password"
            label={t('register.confirm')}
            dependencies={['password']}
            rules={[
              { required: true, message: msg('LOGIN_PASSWORD_REQUIRED') },
              ({ getFieldValue }) => ({
                validator: (_, v: string) =>
                  !v || v === getFieldValue('password')
                    ? Promise.resolve()
                    : Promise.reject(new Error(msg('REGISTER_PASSWORDS_INCONSISTENT'))),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" data-testid="register-confirm" />
          </Form.Item>
          <Form.Item name="invitation_code" label={t('register.invitation')}>
            <Input maxLength={32} data-testid="register-invitation" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={register.isPending} data-testid="register-submit">
            {t('register.submit')}
          </Button>
        </Form>
        <Flex justify="center" style={{ marginTop: 16 }}>
          <Typography.Text type="secondary">{backToLogin}</Typography.Text>
        </Flex>
      </>
    );

  return <AuthLayout title={t('register.title')}>{body}</AuthLayout>;
}
