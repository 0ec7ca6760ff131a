import { useState } from 'react';
import { Alert, App, Button, Checkbox, Flex, Form, Input, Typography } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import type { LoginAnswer } from '@dau/contract';
import { REGISTER_PATH } from '@dau/domain';
import { api, ApiFailure } from '../../kit/api';
import { useAuth } from '../../kit/auth';
import { useErrorText, useMsg } from '../../kit/messages';
import { storage } from '../../kit/storage';
import { AuthLayout } from './AuthLayout';
import { SIX_DIGITS } from './googleCode';

/**
 * /admin_login (spec §2, §5): account and password; when the admin has Google bound the server answers
 * GOOGLE_CODE_REQUIRED (whether the password was right or not) and a second step asks for the 6-digit
 * code; a wrong password or code there answers LOGIN_CODE_FAILED, shown under the code with "Back" to
 * retype the password. "Remember me" keeps the account name only. Errors are the server's own messages
 * (too many attempts with the wait, blocked IP), "Login failed" else.
 */
interface Credentials {
  account: string;
  password: string;
  remember: boolean;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const msg = useMsg();
  const errText = useErrorText();
  const { modal } = App.useApp();
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [creds, setCreds] = useState<Credentials | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [codeForm] = Form.useForm<{ google_code: string }>();
  const remembered = storage.get('account') ?? '';

  const login = useMutation({
    mutationFn: async (v: Credentials & { google_code?: string }) => {
      const answer = await api.post<LoginAnswer>('/auth/login', {
        account: v.account.trim(),
        password: v.password,
        ...(v.google_code ? { google_code: v.google_code } : {}),
      });
      await signIn(answer, v.remember ? { account: v.account.trim() } : null);
    },
    onMutate: () => setError(null),
    onSuccess: () => {
      const from = (location.state as { from?: string } | null)?.from;
      navigate(from && from.startsWith('/customer') ? from : '/customer', { replace: true });
    },
    onError: (e, v) => {
      const code = e instanceof ApiFailure ? e.code : '';
      if (code === 'GOOGLE_CODE_REQUIRED' && !v.google_code) {
        setCreds({ account: v.account, password: v.password, remember: v.remember });
        return;
      }
      if (code === 'LOGIN_CODE_FAILED' || code === 'GOOGLE_CODE_INVALID' || (code === 'GOOGLE_CODE_REQUIRED' && v.google_code)) {
        codeForm.setFields([{ name: 'google_code', errors: [errText(e)] }]);
        return;
      }
      if (code === 'LOGIN_THROTTLED') {
        setError(errText(e));
        return;
      }
      setError(code === 'LOGIN_FAILED' ? msg('LOGIN_FAILED') : errText(e, 'LOGIN_FAILED'));
      if (creds) setCreds(null);
    },
  });

  const forgot = () => modal.info({ title: t('login.forgotTitle'), content: msg('FORGOT_PASSWORD'), okText: t('common.ok') });

  const errorBox = error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} data-testid="login-error" />;

  if (creds) {
    return (
      <AuthLayout title={t('login.googleTitle')}>
        {errorBox}
        <Typography.Paragraph type="secondary">{t('login.googleHint', { account: creds.account })}</Typography.Paragraph>
        <Form form={codeForm} layout="vertical" requiredMark={false} onFinish={(v) => login.mutate({ ...creds, google_code: v.google_code.trim() })}>
          <Form.Item
            name="google_code"
            label={t('login.googleCode')}
            rules={[
              { required: true, message: msg('GOOGLE_CODE_REQUIRED') },
              { pattern: SIX_DIGITS, message: t('google.codeFormat') },
            ]}
          >
            <Input
              size="large"
              prefix={<SafetyOutlined />}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="000000"
              autoFocus
              data-testid="login-google-code"
            />
          </Form.Item>
          <Button type="primary" size="large" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
            {t('login.verify')}
          </Button>
          <Button type="link" block style={{ marginTop: 8 }} onClick={() => setCreds(null)} data-testid="login-back">
            {t('login.back')}
          </Button>
        </Form>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('login.subtitle')}>
      {errorBox}
      <Form<Credentials>
        layout="vertical"
        requiredMark={false}
        initialValues={{ account: remembered, password: '', remember: !!remembered }}
        onFinish={(v) => login.mutate(v)}
      >
        <Form.Item name="account" label={t('login.account')} rules={[{ required: true, whitespace: true, message: msg('LOGIN_USERNAME_REQUIRED') }]}>
          <Input size="large" prefix={<UserOutlined />} autoComplete="username" autoFocus={!remembered} data-testid="login-account" />
        </Form.Item>
        <Form.Item name="password" label={t('login.password')} rules={[{ required: true, message: msg('LOGIN_PASSWORD_REQUIRED') }]}>
          <Input.Password size="large" prefix={<LockOutlined />} autoComplete="current-password" autoFocus={!!remembered} data-testid="login-password" />
        </Form.Item>
        <Flex justify="space-between" align="center" style={{ marginBottom: 16 }}>
          <Form.Item name="remember" valuePropName="checked" noStyle>
            <Checkbox data-testid="login-remember">{t('login.remember')}</Checkbox>
          </Form.Item>
          <Button type="link" style={{ padding: 0 }} onClick={forgot} data-testid="login-forgot">
            {t('login.forgot')}
          </Button>
        </Flex>
        <Button type="primary" size="large" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </Form>
      <Flex justify="center" style={{ marginTop: 16 }}>
        <Typography.Text type="secondary">
          {/* Underlined: a link inside text is not told apart by its colour alone. */}
          {t('login.noAccount')}{' '}
          <Link to={REGISTER_PATH} style={{ textDecoration: 'underline' }}>
            {t('login.register')}
          </Link>
        </Typography.Text>
      </Flex>
    </AuthLayout>
  );
}
