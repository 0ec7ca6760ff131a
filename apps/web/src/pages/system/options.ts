import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../kit/api';
import type { Option } from '../../resources';

interface RoleOption {
  id: number;
  name: string;
}
interface AdminOption {
  id: number;
  account: string;
  name: string;
}

/** Roles the operator may assign (GET /system/roles/options); refreshed whenever roles change. Stable between renders. */
export function useRoleOptions(): Option[] {
  const { data } = useQuery({
    queryKey: ['role', 'options'],
    queryFn: () => api.get<{ items: RoleOption[] }>('/system/roles/options'),
    staleTime: 60_000,
  });
  return useMemo(() => (data?.items ?? []).map((r) => ({ value: r.id, label: r.name })), [data]);
}

/**
 * Admins of the operator's subtree, for "superior" (GET /system/administrators/options, which needs the
 * administrators page: pass `enabled` false without it, and the list stays empty).
 */
export function useAdminOptions(enabled = true): Option[] {
  const { data } = useQuery({
    queryKey: ['administrators', 'options'],
    queryFn: () => api.get<{ items: AdminOption[] }>('/system/administrators/options'),
    staleTime: 60_000,
    enabled,
  });
  return useMemo(() => (data?.items ?? []).map((a) => ({ value: a.id, label: a.name ? `${a.account} (${a.name})` : a.account })), [data]);
}
