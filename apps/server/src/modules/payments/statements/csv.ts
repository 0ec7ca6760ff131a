/**
 * A strict CSV reader for operators' statement files (RFC 4180: commas, double-quoted fields with "" for a
 * quote, CRLF or LF). Each record keeps the line number where it starts, so a refusal can name it. An
 * unterminated quote is an error at the line it opened on, never a guess.
 */
export interface CsvRecord {
  line: number;
  cells: string[];
}

export class StatementFormatError extends Error {
  constructor(readonly line: number, readonly detail: string) {
    super(`line ${line}: ${detail}`);
  }
}

export function readCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // a spreadsheet's BOM
  const out: CsvRecord[] = [];
  let line = 1;
  let i = 0;
  while (i < src.length) {
    const start = line;
    const cells: string[] = [];
    let cell = '';
    let quoted = false;
    let quoteLine = line;
    for (;;) {
      if (i >= src.length) {
        if (quoted) throw new StatementFormatError(quoteLine, 'a quoted field is never closed');
        cells.push(cell);
        break;
      }
      const ch = src[i]!;
      if (quoted) {
        if (ch === '"') {
          if (src[i + 1] === '"') {
            cell += '"';
            i += 2;
            continue;
          }
          quoted = false;
          i += 1;
          const next = src[i];
          if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') throw new StatementFormatError(line, 'text after a closing quote');
          continue;
        }
        if (ch === '\n') line += 1;
        cell += ch;
        i += 1;
        continue;
      }
      if (ch === '"' && cell === '') {
        quoted = true;
        quoteLine = line;
        i += 1;
        continue;
      }
      if (ch === ',') {
        cells.push(cell);
        cell = '';
        i += 1;
        continue;
      }
      if (ch === '\r' || ch === '\n') {
        cells.push(cell);
        i += ch === '\r' && src[i + 1] === '\n' ? 2 : 1;
        line += 1;
        break;
      }
      cell += ch;
      i += 1;
    }
    // Blank lines (a trailing newline, spacing in a portal's export) carry nothing.
    if (!(cells.length === 1 && cells[0]!.trim() === '')) out.push({ line: start, cells });
  }
  return out;
}

/** One CSV line; fields with a comma, quote or line break are quoted. */
export const csvLine = (cells: readonly (string | number)[]) =>
  cells.map((c) => (/[",\r\n]/.test(String(c)) ? `"${String(c).replace(/"/g, '""')}"` : String(c))).join(',');

/**
 * A decimal amount of shillings as the portals write it ("1,500.00", "-2000", "2 000") → cents, exactly.
 * At most two decimals; anything else is a format error (never a rounded guess).
 */
export function shillingsToCents(raw: string, line: number, column: string): number {
  const s = raw.trim().replace(/[,\s]/g, '');
  const m = /^([+-]?)(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw new StatementFormatError(line, `${column}: "${raw}" is not an amount`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) throw new StatementFormatError(line, `${column}: "${raw}" is too large`);
  return m[1] === '-' ? -cents : cents;
}

/** Cents → the shillings text the portals write ("1500.00"). */
export const centsToShillings = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/**
 * A portal's local time (East Africa Time, UTC+3, no daylight saving) → an instant. Accepts
 * `YYYY-MM-DD HH:mm[:ss]`, `DD-MM-YYYY HH:mm[:ss]` and `DD/MM/YYYY HH:mm[:ss]`, and an ISO instant with offset.
 */
export function eatTime(raw: string, line: number, column: string): Date {
  const s = raw.trim();
  if (/^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:?\d{2})$/.test(s)) {
    const d = new Date(s);
    if (!Number.isNaN(d.getTime())) return d;
  }
  let m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s);
  let ymd: [string, string, string] | null = m ? [m[1]!, m[2]!, m[3]!] : null;
  if (!m) {
    m = /^(\d{2})[-/](\d{2})[-/](\d{4})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s);
    if (m) ymd = [m[3]!, m[2]!, m[1]!];
  }
  if (!m || !ymd) throw new StatementFormatError(line, `${column}: "${raw}" is not a date and time`);
  const iso = `${ymd[0]}-${ymd[1]}-${ymd[2]}T${m[4]}:${m[5]}:${m[6] ?? '00'}+03:00`;
  const d = new Date(iso);
  // A day or time that does not exist (2026-02-31, 25:00) is refused, not rolled over.
  if (Number.isNaN(d.getTime()) || eatText(d) !== `${ymd[0]}-${ymd[1]}-${ymd[2]} ${m[4]}:${m[5]}:${m[6] ?? '00'}`) {
    throw new StatementFormatError(line, `${column}: "${raw}" is not a date and time`);
  }
  return d;
}

/** An instant → the portal's local time text `YYYY-MM-DD HH:mm:ss` (EAT). */
export const eatText = (d: Date) => new Date(d.getTime() + 3 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
