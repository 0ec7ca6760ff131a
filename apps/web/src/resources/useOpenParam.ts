import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { rowKeyOf, type Row } from './types';

/**
 * A link may name the row whose drawer to open: `open=<id>` (search everywhere, issue 29, links to a list
 * filtered down to the row). Once the list's page holds that row the drawer opens, and `open` leaves the
 * URL (replacing the entry) so that closing the drawer, going back or reloading does not open it again.
 */
export function useOpenParam(rows: readonly Row[] | undefined, open: (row: Row) => void) {
  const [params, setParams] = useSearchParams();
  const wanted = params.get('open');
  useEffect(() => {
    if (!wanted || !rows) return;
    const row = rows.find((r) => String(rowKeyOf(r)) === wanted);
    if (!row) return;
    open(row);
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.delete('open');
        return next;
      },
      { replace: true },
    );
  }, [wanted, rows, open, setParams]);
}
