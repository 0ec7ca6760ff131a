import { Badge, Button, Flex, Layout, Menu, Tooltip, Typography, theme } from 'antd';
import { LayoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, MenuOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useIsMobile } from '../../kit/dialog';
import { useSocket } from '../../kit/live';
import { usePrefs } from '../../kit/prefs';
import { LanguageSwitch, ThemeToggle } from '../../kit/PrefSwitches';
import { useSite } from '../../kit/site';
import type { MenuModel } from './menuModel';
import { UserMenu } from './UserMenu';
import { SearchBox } from './search/SearchBox';

export const HEADER_HEIGHT = 56;

interface Props {
  model: MenuModel;
  page: string;
  collapsed: boolean;
  onToggleMenu(): void;
  onNavigate(e: { key: string }): void;
}

/** Top bar: menu toggle, logo and site title, top menu (top mode), quick links, live status, preferences, the admin. */
export function HeaderBar({ model, page, collapsed, onToggleMenu, onNavigate }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const { layout, setLayout } = usePrefs();
  const site = useSite(t('common.appName'));
  const isMobile = useIsMobile();
  const topMode = layout === 'top' && !isMobile;
  const layoutLabel = layout === 'top' ? t('shell.layoutSide') : t('shell.layoutTop');

  return (
    <Layout.Header
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 20,
        height: HEADER_HEIGHT,
        lineHeight: `${HEADER_HEIGHT}px`,
        padding: isMobile ? '0 8px' : '0 16px',
        background: token.colorBgContainer,
        borderBottom: `1px solid ${token.colorSplit}`,
        display: 'flex',
        alignItems: 'center',
        gap: 8,
      }}
    >
      {!topMode && (
        <Button
          type="text"
          aria-label={t('shell.toggleMenu')}
          data-testid="menu-toggle"
          icon={isMobile ? <MenuOutlined /> : collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={onToggleMenu}
        />
      )}
      <Flex align="center" gap={8} style={{ flexShrink: 0, cursor: 'pointer' }} onClick={() => navigate('/customer')}>
        {site.logo ? (
          <img src={site.logo} alt="" width={28} height={28} style={{ objectFit: 'contain' }} />
        ) : (
          <span
            aria-hidden
            style={{ width: 28, height: 28, borderRadius: 6, background: token.colorPrimary, display: 'inline-block' }}
          />
        )}
        {!isMobile && (
          <Typography.Text strong style={{ fontSize: 16, whiteSpace: 'nowrap' }} data-testid="site-title">
            {site.title}
          </Typography.Text>
        )}
      </Flex>

      <div style={{ flex: 1, minWidth: 0 }} data-testid={topMode ? 'top-menu' : undefined}>
        {topMode && (
          <Menu
            mode="horizontal"
            items={model.items}
            selectedKeys={[page]}
            onClick={onNavigate}
            style={{ borderBottom: 'none', lineHeight: `${HEADER_HEIGHT - 2}px`, background: 'transparent' }}
          />
        )}
      </div>

      {!isMobile && model.topLinks.length > 0 && (
        <Flex gap={4} data-testid="quick-links">
          {model.topLinks.map((p) => (
            <Button key={p.path} type={p.path === page ? 'link' : 'text'} onClick={() => onNavigate({ key: p.path })}>
              {p.label}
            </Button>
          ))}
        </Flex>
      )}
      <SearchBox />
      <SocketDot />
      {!isMobile && (
        <Tooltip title={layoutLabel}>
          <Button
            type="text"
            aria-label={layoutLabel}
            data-testid="layout-toggle"
            icon={<LayoutOutlined />}
            onClick={() => setLayout(layout === 'top' ? 'side' : 'top')}
          />
        </Tooltip>
      )}
      <ThemeToggle />
      <LanguageSwitch compact={isMobile} />
      <UserMenu compact={isMobile} />
    </Layout.Header>
  );
}

function SocketDot() {
  const { t } = useTranslation();
  const { status } = useSocket();
  const color = status === 'open' ? 'success' : status === 'stopped' ? 'error' : 'warning';
  return (
    <Tooltip title={t(`socket.${status}`)}>
      <span data-testid="socket-status" data-status={status} style={{ display: 'inline-flex', padding: '0 4px' }}>
        <Badge status={color} />
      </span>
    </Tooltip>
  );
}
