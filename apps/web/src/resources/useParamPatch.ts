import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A screen's own filters kept in its address (so the tab, a reload and a shared link keep them): the query
 * and a setter that patches it. An empty or null value removes its key; any change other than the page
 * itself goes back to the first page.
 */
export function useParamPatch(): [URLSearchParams, (patch: Record<string, string | null>) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (patch: Record<string, string | null>) =>
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        if (!('page' in patch)) next.delete('page');
        return next;
      }),
    [setParams],
  );
  return [params, set];
}
