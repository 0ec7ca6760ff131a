import { lazy, Suspense, type ReactNode } from 'react';
import { createHashRouter, Navigate, RouterProvider, useLocation } from 'react-router';
import { useAuth } from './auth';
import { PageLoading } from './Loading';

/**
 * Routes (spec §2): hash history; `/` → /admin_login; public /admin_login, /admin_register, /maintain;
 * everything else under /customer, guarded (no session → /admin_login). Each area is its own chunk: the
 * login page loads neither the shell nor any screen.
 */
const LoginPage = lazy(() => import('../pages/auth/LoginPage'));
const RegisterPage = lazy(() => import('../pages/auth/RegisterPage'));
const MaintainPage = lazy(() => import('../pages/auth/MaintainPage'));
const Shell = lazy(() => import('./shell').then((m) => ({ default: m.Shell })));
const CustomerIndex = lazy(() => import('./shell').then((m) => ({ default: m.CustomerIndex })));
const ScreenRoute = lazy(() => import('./shell').then((m) => ({ default: m.ScreenRoute })));

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

const router = createHashRouter([
  { path: '/', element: <Navigate to={LOGIN_PATH} replace /> },
  { path: LOGIN_PATH, element: <GuestOnly>{page(<LoginPage />)}</GuestOnly> },
  { path: '/admin_register', element: page(<RegisterPage />) },
  { path: '/maintain', element: page(<MaintainPage />) },
  {
    path: HOME_PATH,
    element: <RequireAuth>{page(<Shell />)}</RequireAuth>,
    children: [
      { index: true, element: page(<CustomerIndex />) },
      { path: ':page/*', element: <ScreenRoute /> },
    ],
  },
  { path: '*', element: <Navigate to="/" replace /> },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
