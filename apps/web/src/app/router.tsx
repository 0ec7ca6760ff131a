import { lazy, Suspense, type ReactNode } from 'react';
import { HashRouter, Navigate, Route, Routes, useLocation } from 'react-router';
import { loadTexts } from '../locales';
import { useAuth } from '../kit/auth';
import { PageLoading } from './Loading';

/**
 * Routes (spec §2): hash history; `/` → /admin_login; public /admin_login, /admin_register, /maintain;
 * everything else under /customer, guarded (no session → /admin_login), drawn by the shell: its tabs of
 * open pages keep each screen alive, so the screens are the shell's to render (descendant routes), not an
 * outlet's that would unmount them on every change of page. Each area is its own chunk: the
 * login page loads neither the shell nor any screen. Declarative routes (no loaders or actions: each
 * screen fetches its own data), so the data router of react-router stays out of the bundle.
 */
const LoginPage = lazy(() => import('../pages/auth/LoginPage'));
const RegisterPage = lazy(() => import('../pages/auth/RegisterPage'));
const MaintainPage = lazy(() => import('../pages/auth/MaintainPage'));
// The shell waits for the texts of the menu and of the system screens (not needed to sign in).
const Shell = lazy(() => Promise.all([import('./shell'), loadTexts('menu'), loadTexts('system')]).then(([m]) => ({ default: m.Shell })));

export const LOGIN_PATH = '/admin_login';
export const HOME_PATH = '/customer';

const page = (node: ReactNode) => <Suspense fallback={<PageLoading />}>{node}</Suspense>;

/** The protected area: waits for the session check, sends anonymous visitors to sign in. */
function RequireAuth({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <PageLoading />;
  if (state.status === 'anonymous') return <Navigate to={LOGIN_PATH} replace state={{ from: location.pathname + location.search }} />;
  return <>{children}</>;
}

/** Sign-in: a visitor already signed in goes on to the console. */
function GuestOnly({ children }: { children: ReactNode }) {
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <PageLoading />;
  if (state.status === 'signed') {
    const from = (location.state as { from?: string } | null)?.from;
    return <Navigate to={from && from.startsWith(HOME_PATH) ? from : HOME_PATH} replace />;
  }
  return <>{children}</>;
}

export function AppRouter() {
  return (
    <HashRouter>
      <Routes>
        <Route path="/" element={<Navigate to={LOGIN_PATH} replace />} />
        <Route path={LOGIN_PATH} element={<GuestOnly>{page(<LoginPage />)}</GuestOnly>} />
        <Route path="/admin_register" element={page(<RegisterPage />)} />
        <Route path="/maintain" element={page(<MaintainPage />)} />
        <Route path={`${HOME_PATH}/*`} element={<RequireAuth>{page(<Shell />)}</RequireAuth>} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </HashRouter>
  );
}
