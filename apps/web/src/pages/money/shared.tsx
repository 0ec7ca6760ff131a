import { useMemo } from 'react';
import type { QueryKey } from '@tanstack/react-query';
import { useAccess } from '../../app/access';
import type { Option, ResourceView } from '../../resources';
import { useAdminOptions } from '../system/options';

/** Lists that show bettors: refreshed after anything changes a bettor. */
export const BETTOR_LISTS: QueryKey[] = [['user'], ['user_list'], ['online_statistical'], ['cs_user']];
/** Lists that show bills: refreshed after anything moves money. */
export const BILL_LISTS: QueryKey[] = [['bill'], ['bill_credit'], ['admin_bill'], ['cs_bill']];

/**
 * Admins of my branch as choices (GET /system/administrators/options): only asked for with the
 * administrators page, the server's permission for that list. Empty otherwise.
 */
export function useAgentChoices(): Option[] {
  const { can } = useAccess();
  return useAdminOptions(can('administrators'));
}

/**
 * A declaration whose agent and administrator filters pick from the admins of my branch instead of
 * taking an id (when the options can be loaded; else they stay number inputs).
 */
export function useAdminPickers(def: ResourceView): ResourceView {
  const admins = useAgentChoices();
  return useMemo(() => {
    if (!admins.length) return def;
    return {
      ...def,
      fields: def.fields.map((f) => ((f.key === 'agent_id' || f.key === 'admin_id') && f.search ? { ...f, type: 'enum' as const, options: admins } : f)),
    };
  }, [def, admins]);
}
