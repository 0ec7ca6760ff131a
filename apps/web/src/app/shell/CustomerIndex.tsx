import { Navigate } from 'react-router';
import { useAccess } from '../../kit/access';
import { hasScreen } from '../screens';
import { useMenuModel } from './menuModel';
import { NoPagesResult } from './results';

/**
 * `/customer`: the first of the home screens the console has and the admin may see (today's statistics,
 * then the bettors), else the first page of the menu.
 */
export const HOME_SCREENS = ['today_statistics', 'user', 'cs_user'];

export function CustomerIndex() {
  const { can } = useAccess();
  const { pages } = useMenuModel();
  const home = HOME_SCREENS.find((p) => hasScreen(p) && can(p));
  if (home) return <Navigate to={`/customer/${home}`} replace />;
  const first = pages[0];
  if (first) return <Navigate to={`/customer/${first.path}`} replace />;
  return <NoPagesResult />;
}
