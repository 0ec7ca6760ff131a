import { lazy, Suspense, useState } from 'react';
import { Avatar, Button, Dropdown, Typography } from 'antd';
import { ClockCircleOutlined, KeyOutlined, LockOutlined, LogoutOutlined, SafetyCertificateOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { GOOGLE_BINDING } from '@dau/domain';
import { useAuth, useMe } from '../../kit/auth';
import { useTimeZone, zoneLabel } from '../../kit/timeZone';

// Opened from the menu only: their code (a select of time zones, the Google binding form) loads on first use.
const GoogleBindingModal = lazy(() => import('../../pages/auth/GoogleBindingModal').then((m) => ({ default: m.GoogleBindingModal })));
const TimeZoneDialog = lazy(() => import('./TimeZoneDialog').then((m) => ({ default: m.TimeZoneDialog })));

/** The admin's dropdown: who is signed in, change password, Google authenticator, sign out. */
export function UserMenu({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { signOut } = useAuth();
  const me = useMe();
  const [googleOpen, setGoogleOpen] = useState(false);
  const [zoneOpen, setZoneOpen] = useState(false);
  // Mounted from the first opening on (so that they close with their animation).
  const [used, setUsed] = useState({ google: false, zone: false });
  const zone = useTimeZone();
  const user = me.user_info;
  const bound = user.google_bound === GOOGLE_BINDING.bound;

  const onClick = async ({ key }: { key: string }) => {
    if (key === 'password') navigate('/customer/update_password');
    if (key === 'google') {
      setUsed((u) => ({ ...u, google: true }));
      setGoogleOpen(true);
    }
    if (key === 'timeZone') {
      setUsed((u) => ({ ...u, zone: true }));
      setZoneOpen(true);
    }
    if (key === 'logout') {
      await signOut();
      navigate('/admin_login', { replace: true });
    }
  };

  return (
    <>
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        menu={{
          onClick: (e) => void onClick(e),
          items: [
            {
              key: 'who',
              disabled: true,
              icon: <UserOutlined />,
              label: (
                <span data-testid="user-account">
                  <Typography.Text strong>{user.account}</Typography.Text>
                  {user.role_name ? <Typography.Text type="secondary"> · {user.role_name}</Typography.Text> : null}
                </span>
              ),
            },
            { type: 'divider' },
            { key: 'password', icon: <LockOutlined />, label: <span data-testid="change-password">{t('shell.changePassword')}</span> },
            {
              key: 'google',
              icon: bound ? <SafetyCertificateOutlined /> : <KeyOutlined />,
              label: (
                <span data-testid="google-binding">
                  {t('google.title')}
                  <Typography.Text type={bound ? 'success' : 'secondary'}> ({bound ? t('google.bound') : t('google.unbound')})</Typography.Text>
                </span>
              ),
            },
            {
              key: 'timeZone',
              icon: <ClockCircleOutlined />,
              label: (
                <span data-testid="time-zone">
                  {t('timeZone.menu')}
                  <Typography.Text type="secondary"> ({zoneLabel(zone)})</Typography.Text>
                </span>
              ),
            },
            { type: 'divider' },
            { key: 'logout', icon: <LogoutOutlined />, danger: true, label: <span data-testid="logout">{t('shell.signOut')}</span> },
          ],
        }}
      >
        {/* Named by the admin's name where it shows it (the visible text must be in the name), else "My account". */}
        <Button
          type="text"
          data-testid="user-menu"
          aria-label={compact ? t('shell.account') : undefined}
          title={compact ? undefined : t('shell.account')}
          style={{ paddingInline: 6 }}
        >
          <Avatar size="small" icon={<UserOutlined />} />
          {!compact && <span style={{ maxWidth: 140, overflow: 'hidden', textOverflow: 'ellipsis' }}>{user.name || user.account}</span>}
        </Button>
      </Dropdown>
      <Suspense fallback={null}>
        {used.google && <GoogleBindingModal open={googleOpen} bound={bound} onClose={() => setGoogleOpen(false)} />}
        {used.zone && <TimeZoneDialog open={zoneOpen} onClose={() => setZoneOpen(false)} />}
      </Suspense>
    </>
  );
}
