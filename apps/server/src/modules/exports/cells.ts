/**
 * Cells of the export files. The cell formatting shared with the quick CSV downloads (instants in the
 * operator's zone with the offset, enum labels, money, formula defusing) lives in platform/csv.ts.
 */
export { DEFAULT_TIME_ZONE, cellReader, csvField, defuse, formatInstant, isTimeZone, type Cell, type CellOf } from '../../platform/csv.js';

// XML 1.0 forbids most control characters even when escaped: drop them (and lone surrogates).
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const XML_SPECIAL = /[&<>"]/g;
const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

// eslint-disable-next-line no-control-regex
const XML_NEEDS_WORK = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

export function xmlText(s: string): string {
  if (!XML_NEEDS_WORK.test(s)) return s;
  return s.replace(XML_INVALID, '').replace(XML_SPECIAL, (m) => XML_ESCAPES[m]!);
}

/** Excel keeps at most 32,767 characters in a cell. */
export const XLSX_CELL_MAX = 32_767;
