import { Navigate } from 'react-router';
import { useAccess } from '../access';
import { hasScreen } from '../screens';
import { useMenuModel } from './menuModel';
import { NoPagesResult } from './results';

/** `/customer`: today_statistics when the console has it and the admin may see it, else the first page shown. */
export const HOME_SCREEN = 'today_statistics';

export function CustomerIndex() {
  const { can } = useAccess();
  const { pages } = useMenuModel();
  if (hasScreen(HOME_SCREEN) && can(HOME_SCREEN)) return <Navigate to={HOME_SCREEN} replace />;
  const first = pages[0];
  if (first) return <Navigate to={first.path} replace />;
  return <NoPagesResult />;
}
