import { inTable } from '@dau/contract/ui';
import type { FieldView } from './types';

/**
 * Which columns a list shows before the operator chooses (column settings): as many as fit the width of
 * the screen, so a 1280 px screen shows a whole row with nothing under the fixed Actions column.
 * A declaration says what identifies its rows to their reader (`keep`: a withdrawal's phone, amount,
 * operator, state and time; a match's league, teams, kick-off, state): those are never given up. Besides
 * them, the first column, the first text column (what names the row: an account, a serial number), the
 * state columns (a status is what a reviewer reads first) and the row's creation time (`create_time`: a
 * queue is read by when each request came) go last, from the end of the declaration, and only in a list
 * that declares its own (a list that declares none keeps them all). Flags and counters go first, then
 * further texts (each from the end of the declaration), then times, then amounts and labels.
 * Hidden columns stay one click away in the column settings, and the detail drawer shows every field.
 */

/** What a column needs, in px (cell padding included): its declared width, or one for its type. */
export function columnWidth(f: FieldView): number {
  if (f.width) return f.width;
  switch (f.type) {
    case 'datetime':
      return 175;
    case 'money':
      return 140;
    case 'enum':
      return 130;
    case 'number':
    case 'odds':
    case 'switch':
    case 'image':
    case 'images':
    case 'color':
      return 100;
    default:
      return 160;
  }
}

/** A state column: an enumeration named status, *_status, *_state or disabled (an account's state). */
export const isStateColumn = (f: FieldView) => f.type === 'enum' && /(^|_)(status|state|disabled)$/.test(f.key);

const isText = (f: FieldView) => f.type === 'text' || f.type === 'textarea';

/** Room taken by the row's actions column and the selection boxes. */
export const ACTIONS_WIDTH = 130;
export const SELECTION_WIDTH = 48;
const MIN_COLUMNS = 3;

/** How readily a column is given up: higher first; 0 never. */
function dropRank(f: FieldView, index: number, firstText: number, declared: boolean): number {
  if (f.keep) return 0;
  if (index === 0 || index === firstText || isStateColumn(f) || f.key === 'create_time') return declared ? 0.5 : 0;
  if (f.type === 'money' || f.type === 'enum') return 1;
  if (f.type === 'datetime') return 2;
  // Flags and counters go before names and references.
  if (isText(f)) return 3;
  return 4;
}

/** The keys of the table columns to hide so that the rest fit `width` px (none when all fit or width is unknown). */
export function fitColumns(fields: readonly FieldView[], width: number, extra = 0): string[] {
  const cols = fields.filter(inTable);
  if (!width || width <= 0) return [];
  let total = extra + cols.reduce((s, f) => s + columnWidth(f), 0);
  const firstText = cols.findIndex(isText);
  const declared = cols.some((f) => f.keep);
  // Candidates in the order they go: by rank, then from the end of the declaration.
  const order = cols
    .map((f, i) => ({ f, i, rank: dropRank(f, i, firstText, declared) }))
    .filter((c) => c.rank > 0)
    .sort((a, b) => b.rank - a.rank || b.i - a.i);
  const hidden: string[] = [];
  for (const { f } of order) {
    if (total <= width || cols.length - hidden.length <= MIN_COLUMNS) break;
    hidden.push(f.key);
    total -= columnWidth(f);
  }
  return hidden;
}
