import type { ReactNode } from 'react';
import { Flex, Layout, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch, ThemeToggle } from '../../kit/PrefSwitches';
import { useSite } from '../../kit/site';

/**
 * The frame of the public pages: theme and language switches, the site's logo and title, a panel.
 * (A plain panel, not antd Card: Card brings Tabs along, which the login page does not need.)
 */
export function AuthLayout({ title, children, width = 400 }: { title: ReactNode; children: ReactNode; width?: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const site = useSite(t('common.appName'));
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <Flex justify="end" gap={4} style={{ padding: '8px 12px' }}>
        <ThemeToggle />
        <LanguageSwitch />
      </Flex>
      <Flex flex={1} justify="center" align="center" style={{ padding: '16px 12px 48px' }}>
        <div
          style={{
            width: '100%',
            maxWidth: width,
            padding: '32px 28px 24px',
            background: token.colorBgContainer,
            borderRadius: token.borderRadiusLG,
            border: `1px solid ${token.colorBorderSecondary}`,
            boxShadow: token.boxShadowTertiary,
          }}
        >
          <Flex vertical align="center" gap={4} style={{ marginBottom: 24 }}>
            {site.logo ? (
              <img src={site.logo} alt="" width={48} height={48} style={{ objectFit: 'contain' }} />
            ) : (
              <span aria-hidden style={{ width: 48, height: 48, borderRadius: 12, background: token.colorPrimary, display: 'inline-block' }} />
            )}
            <Typography.Title level={3} style={{ margin: '8px 0 0' }} data-testid="site-title">
              {site.title}
            </Typography.Title>
            <Typography.Text type="secondary">{title}</Typography.Text>
          </Flex>
          {children}
        </div>
      </Flex>
    </Layout>
  );
}
