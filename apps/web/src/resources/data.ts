import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { MessageCode } from '@dau/domain';
import { api, type ListAnswer } from '../kit/api';
import { useFeedback } from './feedback';
import type { ResourceView, Row } from './types';

type Named = Pick<ResourceView, 'name' | 'api'>;

export interface ListQueryOptions {
  /** False while the screen must not ask yet (a query screen without its required filter). */
  enabled?: boolean;
  /** Reload every n ms while the answer says so (e.g. jobs in progress), or false. */
  refetchInterval?: (answer: ListAnswer<Row> | undefined) => number | false;
}

/** One page of a list: queryKey [name, query]; the previous page stays on screen while the next loads. */
export function useResourceList(def: Named, query: Record<string, string | number>, opts: ListQueryOptions = {}) {
  const enabled = opts.enabled ?? true;
  const interval = opts.refetchInterval;
  return useQuery({
    queryKey: [def.name, query],
    queryFn: () => api.get<ListAnswer<Row>>(def.api, query),
    enabled,
    // A query that may not run shows nothing, not the answer to the previous filters.
    placeholderData: enabled ? keepPreviousData : undefined,
    refetchInterval: interval ? (q) => interval(q.state.data) : undefined,
  });
}

/**
 * One row, fresh from GET {api}/:id (read out of the answer by `def.detailOf` when the route answers more
 * than the row); the list's copy shows until it arrives.
 */
export function useResourceRecord(def: Named & Pick<ResourceView, 'detailOf'>, id: string | number | undefined, placeholder?: Row, enabled = true) {
  const detailOf = def.detailOf;
  return useQuery({
    queryKey: [def.name, 'detail', id],
    queryFn: async () => {
      const answer = await api.get<unknown>(`${def.api}/${id}`);
      return (detailOf ? detailOf(answer) : (answer as Row)) ?? placeholder ?? {};
    },
    enabled: enabled && id !== undefined,
    placeholderData: placeholder,
  });
}

/** A settings record (singleton resource): GET {api}. */
export function useSingleton(def: Named) {
  return useQuery({ queryKey: [def.name, 'record'], queryFn: () => api.get<Row>(def.api) });
}

export interface ApiMutationOptions<R> {
  /** Query keys to refresh after success (prefixes: [name] refreshes every list and detail of name). */
  invalidate?: QueryKey[];
  /** The toast on success: a message code, or false when the caller shows something else. */
  success?: MessageCode | false;
  onSuccess?: (answer: R) => void;
}

/**
 * A write: pessimistic (the screen changes when the server has answered), then the lists are refreshed and
 * a toast says "Successful operation" or the server's message.
 */
/** The pending change of an answer 202 (a setting that waits for a second admin), if it is one. */
export function pendingChangeOf(answer: unknown): { id: number; approvers: number } | null {
  if (!answer || typeof answer !== 'object' || !('pending_change' in answer)) return null;
  // Only a change that now waits (an approval or a refusal answers the change too, decided).
  const c = (answer as { pending_change?: { id?: unknown; approvers?: unknown; status?: unknown } }).pending_change;
  return c && typeof c.id === 'number' && c.status === 'pending' ? { id: c.id, approvers: Number(c.approvers ?? 0) } : null;
}

export function useApiMutation<V, R>(fn: (vars: V) => Promise<R>, opts: ApiMutationOptions<R> = {}) {
  const client = useQueryClient();
  const { ok, fail, pending } = useFeedback();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (answer) => {
      const waiting = pendingChangeOf(answer);
      if (waiting) {
        // Saved as a pending change: nothing changed yet, so the screen's own success handling is skipped.
        pending(waiting.approvers);
        await client.invalidateQueries({ queryKey: ['pending_change'] });
        return;
      }
      if (opts.success !== false) ok(opts.success);
      opts.onSuccess?.(answer);
      await Promise.all((opts.invalidate ?? []).map((queryKey) => client.invalidateQueries({ queryKey })));
    },
    onError: (err) => fail(err),
  });
}

/** Create, update and delete of a list resource, or update of a singleton (PUT {api}). */
export function useResourceMutations(def: Named, extraInvalidate: QueryKey[] = []) {
  const invalidate = [[def.name], ...extraInvalidate];
  return {
    create: useApiMutation((body: Row) => api.post<unknown>(def.api, body), { invalidate }),
    update: useApiMutation(({ id, body }: { id?: string | number; body: Row }) => api.put<unknown>(id === undefined ? def.api : `${def.api}/${id}`, body), {
      invalidate,
    }),
    remove: useApiMutation((id: string | number) => api.del<unknown>(`${def.api}/${id}`), { invalidate }),
  };
}
