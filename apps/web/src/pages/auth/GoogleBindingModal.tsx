import { useEffect } from 'react';
import { Alert, App, Button, Flex, Form, Input, Skeleton, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useAuth } from '../../kit/auth';
import { DialogBox } from '../../kit/DialogBox';
import { useErrorText, useMsg } from '../../kit/messages';
import { SIX_DIGITS } from './googleCode';

/**
 * Google authenticator (the spec's "Google verification code"): when not bound, POST /auth/google/setup
 * gives a QR code and its secret; the admin scans it and confirms with a 6-digit code. When bound, a
 * current code unbinds it.
 */
interface Setup {
  secret: string;
  otpauth_url: string;
  qr_data_url: string;
}

export function GoogleBindingModal({ open, bound, onClose }: { open: boolean; bound: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const msg = useMsg();
  const errText = useErrorText();
  const { message } = App.useApp();
  const { refresh } = useAuth();
  const [form] = Form.useForm<{ code: string }>();

  const setup = useMutation({ mutationFn: () => api.post<Setup>('/auth/google/setup') });
  const submit = useMutation({
    mutationFn: (code: string) => api.post(bound ? '/auth/google/unbind' : '/auth/google/bind', { code }),
    onSuccess: async () => {
      message.success(msg('SUCCESS'));
      await refresh();
      onClose();
    },
    onError: (e) => form.setFields([{ name: 'code', errors: [errText(e)] }]),
  });

  const { mutate: startSetup, reset: resetSetup } = setup;
  useEffect(() => {
    if (open && !bound) startSetup();
    if (!open) {
      resetSetup();
      form.resetFields();
    }
  }, [open, bound, startSetup, resetSetup, form]);

  const codeRules = [
    { required: true, message: msg('GOOGLE_CODE_REQUIRED') },
    { pattern: SIX_DIGITS, message: t('google.codeFormat') },
  ];

  return (
    <DialogBox open={open} title={t('google.title')} maxWidth={520} onClose={onClose} footer={null}>
      {bound ? (
        <Typography.Paragraph>{t('google.unbindIntro')}</Typography.Paragraph>
      ) : setup.isPending ? (
        <Skeleton active />
      ) : setup.isError ? (
        <Alert
          type="error"
          showIcon
          title={errText(setup.error)}
          action={<Button onClick={() => startSetup()}>{t('common.retry')}</Button>}
        />
      ) : setup.data ? (
        <Flex vertical align="center" gap={8} style={{ marginBottom: 16 }}>
          <Typography.Paragraph style={{ alignSelf: 'stretch' }}>{t('google.setupIntro')}</Typography.Paragraph>
          <img src={setup.data.qr_data_url} alt={t('google.qrAlt')} width={180} height={180} data-testid="google-qr" />
          <Typography.Text type="secondary">{t('google.secret')}</Typography.Text>
          <Typography.Text code copyable data-testid="google-secret">
            {setup.data.secret}
          </Typography.Text>
        </Flex>
      ) : null}

      {(bound || setup.data) && (
        <Form form={form} layout="vertical" onFinish={(v) => submit.mutate(v.code.trim())} requiredMark={false}>
          <Form.Item name="code" label={t('google.code')} rules={codeRules}>
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              placeholder="000000"
              data-testid="google-code"
              autoFocus
            />
          </Form.Item>
          <Flex justify="end" gap={8}>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button type="primary" danger={bound} htmlType="submit" loading={submit.isPending} data-testid="google-submit">
              {bound ? t('google.unbind') : t('google.bind')}
            </Button>
          </Flex>
        </Form>
      )}
    </DialogBox>
  );
}
