import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { billRemarkText, centsToDecimalString, enumLabel, type EnumName } from '@dau/domain';
import { admins } from './schema.js';
import type { Executor } from './db.js';
import type { ExportColumn } from './listing.js';

/**
 * The one writer of CSV cells: the background exports (modules/exports) and the quick downloads
 * (`GET …/export` of the resource layer and of the administrators) format every value here.
 */

/**
 * One exported value, ready for a file: a text, a number, an amount (a decimal string of TSh, e.g.
 * "-20.50") or nothing. Enum ids become their label in the asker's language; money in cents becomes
 * decimal shillings, exactly (the digits of the integer, never a float division).
 */
export type Cell = { t: 's'; v: string } | { t: 'n'; v: number } | { t: 'm'; v: string; dp?: number } | null;

/** A value of a row to a cell, per column (resolved once per export, not per row); `row` for a column read from several keys. */
export type CellOf = (v: unknown, row?: Readonly<Record<string, unknown>>) => Cell;

const INTEGER = /^-?\d+$/;
/** An instant as the API writes it (Date.toISOString: UTC, `Z`). */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/** The zone exports are written in when the asker chose none (DESIGN "Time"). */
export const DEFAULT_TIME_ZONE = 'Africa/Dar_es_Salaam';

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatterOf(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Whether a string names a time zone this runtime knows (IANA, e.g. Africa/Dar_es_Salaam). */
export function isTimeZone(zone: string): boolean {
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/**
 * An instant as the operator reads it: wall time in `zone` and the zone's offset at that instant,
 * `2026-11-25 10:51:00 +03:00` (a file opened anywhere says which time it is).
 */
export function formatInstant(d: Date, zone: string = DEFAULT_TIME_ZONE): string {
  const p: Record<string, string> = {};
  for (const part of formatterOf(zone).formatToParts(d)) p[part.type] = part.value;
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  const offsetMin = Math.round((wall - Math.floor(d.getTime() / 1000) * 1000) / 60_000);
  const abs = Math.abs(offsetMin);
  const offset = `${offsetMin < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${offset}`;
}

/** The plain reader: numbers as numbers, instants (Date or ISO string) in the zone with their offset, the rest as text. */
function textIn(zone: string): CellOf {
  return (v) => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'number') return Number.isFinite(v) ? { t: 'n', v } : { t: 's', v: String(v) };
    if (typeof v === 'string') {
      // Only a real instant is written in the zone: text that merely looks like one (a name such as
      // "2026-13-45T99:99:99Z") stays as it is.
      if (!ISO_INSTANT.test(v)) return { t: 's', v };
      const d = new Date(v);
      return { t: 's', v: Number.isNaN(d.getTime()) ? v : formatInstant(d, zone) };
    }
    if (typeof v === 'bigint') return { t: 's', v: v.toString() };
    if (typeof v === 'boolean') return { t: 's', v: v ? 'true' : 'false' };
    if (v instanceof Date) return { t: 's', v: Number.isNaN(v.getTime()) ? '' : formatInstant(v, zone) };
    return { t: 's', v: JSON.stringify(v) };
  };
}

/** A reader that never throws: a value it cannot format is written as its text, so one row never cuts a download. */
const safely = (read: CellOf): CellOf => (v, row) => {
  try {
    return read(v, row);
  } catch {
    return v === null || v === undefined ? null : { t: 's', v: String(v) };
  }
};

export function cellReader(col: ExportColumn, locale: string, zone: string = DEFAULT_TIME_ZONE): CellOf {
  return safely(readerOf(col, locale, zone));
}

function readerOf(col: ExportColumn, locale: string, zone: string): CellOf {
  const text = textIn(zone);
  if (col.remark) {
    return (v, row) => {
      const shown = billRemarkText(row?.remark_kind, row?.remark_params, typeof v === 'string' ? v : null, locale);
      return shown ? { t: 's', v: shown } : null;
    };
  }
  if (col.text) {
    const write = col.text;
    return (v, row) => {
      const shown = write(v, row ?? {}, locale);
      return shown === null ? text(v) : { t: 's', v: shown };
    };
  }
  if (col.decimals !== undefined) {
    const dp = col.decimals;
    return (v) => {
      if (v === null || v === undefined || v === '') return null;
      const n = typeof v === 'bigint' ? v : typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : typeof v === 'string' && INTEGER.test(v) ? BigInt(v) : null;
      return n === null ? text(v) : { t: 'm', v: unitsToDecimalString(n, dp), dp };
    };
  }
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

/** An integer of 10^-dp units as a decimal with all its dp digits, exactly: (50600169n, 6) → "50.600169". */
export function unitsToDecimalString(n: bigint, dp: number): string {
  const negative = n < 0n;
  const abs = negative ? -n : n;
  const scale = 10n ** BigInt(dp);
  const fraction = dp > 0 ? `.${(abs % scale).toString().padStart(dp, '0')}` : '';
  return `${negative ? '-' : ''}${abs / scale}${fraction}`;
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

/** A line of a CSV file (LF end). */
export const csvLine = (cells: readonly Cell[]) => cells.map(csvField).join(',') + '\n';

/** The header of a column: its label in the asker's language, else its key. */
export const headerText = (key: string, labels?: Readonly<Record<string, string>>) => labels?.[key]?.trim() || key;

/** The first line of a CSV file: a BOM (Excel then reads UTF-8) and the headers. */
export const csvHeader = (keys: readonly string[], labels?: Readonly<Record<string, string>>) =>
  '\uFEFF' + csvLine(keys.map((k) => ({ t: 's', v: headerText(k, labels) })));

const LABEL_KEY = /^[a-z][a-z0-9_]{0,63}$/;
// eslint-disable-next-line no-control-regex
const NO_CONTROL = /^[^\u0000-\u001F\u007F]*$/;

/** A `labels` query parameter to a key → label map, or undefined when it is not one (JSON object of short one-line texts). */
function labelsOf(raw: string): Record<string, string> | undefined {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, label] of Object.entries(v)) {
    if (!LABEL_KEY.test(k) || typeof label !== 'string' || !label.trim() || label.length > 100 || !NO_CONTROL.test(label)) return undefined;
    out[k] = label.trim();
  }
  return out;
}

/**
 * The column headers of a quick download, by column key, as the list labels its columns in the caller's
 * language: a JSON object in the query (`labels={"ip":"Anwani ya IP"}`).
 */
export const labelsParam = z
  .string()
  .max(4000)
  .refine((s) => labelsOf(s) !== undefined, 'a JSON object of column key → label (one line, at most 100 characters)')
  .optional()
  .describe('Column headers by column key, a JSON object (the keys that are not columns are ignored)');

/** The labels of the columns a file has, from a validated `labels` parameter. */
export function labelsFor(raw: string | undefined, keys: readonly string[]): Record<string, string> | undefined {
  const all = raw === undefined ? undefined : labelsOf(raw);
  if (!all) return undefined;
  return Object.fromEntries(keys.filter((k) => Object.hasOwn(all, k)).map((k) => [k, all[k]!]));
}

/** The zone an admin reads times in (`admins.time_zone`, Dar es Salaam when unset or unknown). */
export async function timeZoneOf(ex: Executor, adminId: number): Promise<string> {
  const [me] = await ex.select({ timeZone: admins.timeZone }).from(admins).where(eq(admins.id, adminId));
  return me?.timeZone && isTimeZone(me.timeZone) ? me.timeZone : DEFAULT_TIME_ZONE;
}
