import { centsToDecimalString, enumLabel, type EnumName } from '@dau/domain';
import type { ExportColumn } from '../../platform/listing.js';

/**
 * One exported value, ready for a file: a text, a number, an amount (a decimal string of TSh, e.g.
 * "-20.50") or nothing. Enum ids become their label in the asker's language; money in cents becomes
 * decimal shillings, exactly (the digits of the integer, never a float division).
 */
export type Cell = { t: 's'; v: string } | { t: 'n'; v: number } | { t: 'm'; v: string } | null;

/** A value of a row to a cell, per column (resolved once per export, not per row). */
export type CellOf = (v: unknown) => Cell;

const INTEGER = /^-?\d+$/;

function text(v: unknown): Cell {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? { t: 'n', v } : { t: 's', v: String(v) };
  if (typeof v === 'string') return { t: 's', v };
  if (typeof v === 'bigint') return { t: 's', v: v.toString() };
  if (typeof v === 'boolean') return { t: 's', v: v ? 'true' : 'false' };
  if (v instanceof Date) return { t: 's', v: Number.isNaN(v.getTime()) ? '' : v.toISOString() };
  return { t: 's', v: JSON.stringify(v) };
}

export function cellReader(col: ExportColumn, locale: string): CellOf {
  if (col.money) {
    return (v) => {
      if (v === null || v === undefined || v === '') return null;
      const cents = typeof v === 'string' && INTEGER.test(v) ? Number(v) : typeof v === 'bigint' ? Number(v) : v;
      if (typeof cents !== 'number' || !Number.isSafeInteger(cents)) return text(v);
      return { t: 'm', v: centsToDecimalString(cents) };
    };
  }
  if (col.enum) {
    const name = col.enum as EnumName;
    const cache = new Map<number, string>();
    return (v) => {
      if (v === null || v === undefined || v === '') return null;
      const id = typeof v === 'number' ? v : Number(v);
      if (!Number.isInteger(id)) return text(v);
      let label = cache.get(id);
      if (label === undefined) {
        label = enumLabel(name, id, locale);
        cache.set(id, label);
      }
      return { t: 's', v: label };
    };
  }
  return text;
}

/**
 * Text a spreadsheet would run as a formula (=, +, -, @, tab, carriage return first) gets a leading
 * apostrophe (OWASP "CSV injection"). Numbers and amounts are written as they are: "-20.50" is a
 * number, not a formula.
 */
export function defuse(s: string): string {
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

export function csvField(c: Cell): string {
  if (c === null) return '';
  if (c.t !== 's') return String(c.v);
  const s = defuse(c.v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

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
