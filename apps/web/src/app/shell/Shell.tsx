import { useCallback, useEffect, useState } from 'react';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { Breadcrumb, Drawer, Layout, Menu, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { MENU_WIDTH } from '@dau/domain';
import { AccessProvider, useAccess, useCurrentPage } from '../../kit/access';
import { useMe } from '../../kit/auth';
import { useIsMobile } from '../../kit/dialog';
import { LiveProvider } from '../../kit/live';
import { usePrefs } from '../../kit/prefs';
import { hasScreen } from '../screens';
import { useTimeZone } from '../../kit/timeZone';
import { HeaderBar } from './HeaderBar';
import { useMenuModel, usePageLabel } from './menuModel';
import { CustomerIndex } from './CustomerIndex';
import { ScreenRoute } from './ScreenRoute';
import { TabPanes } from './tabs/TabPanes';
import { TabsBar } from './tabs/TabsBar';
import { useOpenTabs } from './tabs/useOpenTabs';
import { useShownCategories } from '../../pages/shop/categories';
import './menu.css';

/**
 * The signed-in console: the admin's permissions, the live socket, and the layout — a left menu 210 px
 * wide (collapsible; a drawer on mobile) or, in top-menu mode, no left menu (width 0) and the menu in the
 * header. The mode is stored under `layout`. Above the content, the tabs of the pages open (tabs/): each
 * screen stays as the operator left it while another tab is shown.
 */
export function Shell() {
  const me = useMe();
  return (
    <AccessProvider user={me.user_info} menus={me.menus} hasScreen={hasScreen}>
      <LiveProvider>
        <ShellLayout />
      </LiveProvider>
    </AccessProvider>
  );
}

/**
 * Screens reached from a list rather than the menu: their trail runs through the list, and the list's
 * menu item stays highlighted. The list the operator came from (navigation state `from`) wins.
 */
const PARENT_PAGE: Record<string, string> = { order_detailed: 'order_list', cs_order_detailed: 'cs_order' };

function ShellLayout() {
  const { t } = useTranslation();
  const { layout } = usePrefs();
  const me = useMe();
  const { can } = useAccess();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const page = useCurrentPage();
  const model = useMenuModel();
  // Spec §7: the shown shop categories are fetched at start (for an admin holding a shop page).
  useShownCategories();
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  const parent = model.byPath[page] ? null : typeof from === 'string' && model.byPath[from] ? from : PARENT_PAGE[page] && model.byPath[PARENT_PAGE[page]] ? PARENT_PAGE[page] : null;
  const menuPage = parent ?? page;
  const isMobile = useIsMobile();
  const zone = useTimeZone();
  const [collapsed, setCollapsed] = useState(false);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const group = model.byPath[menuPage]?.group;
  const [openKeys, setOpenKeys] = useState<string[]>(group ? [`group:${group}`] : []);
  const pageLabelOf = usePageLabel(model);
  const allowed = useCallback((p: string) => hasScreen(p) && can(p), [can]);
  const tabs = useOpenTabs(me.user_info.id, allowed);
  const tabLabel = useCallback((p: string) => pageLabelOf(p) || p, [pageLabelOf]);

  useEffect(() => {
    if (group) setOpenKeys((keys) => (keys.includes(`group:${group}`) ? keys : [...keys, `group:${group}`]));
  }, [group]);

  const go = ({ key }: { key: string }) => {
    if (key.startsWith('group:')) return;
    setDrawerOpen(false);
    navigate(`/customer/${key}`);
  };

  const sideMenu = (
    <div data-testid="side-menu" className="dau-side-menu">
      <Menu
        mode="inline"
        items={model.items}
        selectedKeys={[menuPage]}
        openKeys={collapsed && !isMobile ? undefined : openKeys}
        onOpenChange={setOpenKeys}
        onClick={go}
        style={{ borderInlineEnd: 'none' }}
      />
    </div>
  );
  const showSider = layout === 'side' && !isMobile;
  // A page outside the menu (a detail page) still has its catalogue label; an unknown path has none.
  const pageLabel = pageLabelOf(page);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <HeaderBar
        model={model}
        page={menuPage}
        onNavigate={go}
        collapsed={collapsed}
        onToggleMenu={() => (isMobile ? setDrawerOpen(true) : setCollapsed((c) => !c))}
      />
      <Layout>
        {showSider && (
          <Layout.Sider
            width={MENU_WIDTH}
            collapsedWidth={64}
            collapsed={collapsed}
            trigger={null}
            theme="light"
            style={{
              position: 'sticky',
              top: 56,
              height: 'calc(100vh - 56px)',
              overflow: 'auto',
              borderInlineEnd: `1px solid ${token.colorSplit}`,
            }}
          >
            {sideMenu}
          </Layout.Sider>
        )}
        <Layout.Content style={{ padding: isMobile ? 8 : 16, minWidth: 0 }}>
          {tabs.state.tabs.length > 0 && <TabsBar tabs={tabs} label={tabLabel} compact={isMobile} />}
          <Breadcrumb
            style={{ marginBottom: 12 }}
            items={[
              ...(group ? [{ title: model.groupLabel[group] }] : []),
              ...(parent ? [{ title: <a href={`#/customer/${parent}`} data-testid="breadcrumb-parent">{model.byPath[parent].label}</a> }] : []),
              ...(pageLabel ? [{ title: <span data-testid="page-title">{pageLabel}</span> }] : []),
            ]}
          />
          {/* Keyed by the time zone: a new choice redraws every time on the screen. */}
          <div key={zone} style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG, padding: isMobile ? 12 : 20, minHeight: 240 }}>
            {/* The open tabs' screens; /customer goes on to the landing screen; a page that is no tab (none
                such, or not granted) shows its 404 or 403 on its own. */}
            <TabPanes tabs={tabs.state.tabs} active={tabs.state.active} />
            {page === '' ? (
              <CustomerIndex />
            ) : (
              !allowed(page) && (
                <Routes>
                  <Route path=":page/*" element={<ScreenRoute />} />
                </Routes>
              )
            )}
          </div>
        </Layout.Content>
      </Layout>
      <Drawer
        open={isMobile && drawerOpen}
        placement="left"
        size={MENU_WIDTH + 40}
        onClose={() => setDrawerOpen(false)}
        title={t('shell.menu')}
        styles={{ body: { padding: 0 } }}
      >
        {sideMenu}
      </Drawer>
    </Layout>
  );
}
