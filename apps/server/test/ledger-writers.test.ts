import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SRC, tsFiles } from './support/imports.js';
import { freshDatabase } from './helpers.js';

/**
 * One posting path (issue 26): bills, house entries and the bettors' balances are written by the money
 * module alone (modules/money: `post`, `postBatch`, `houseTransfer`, `insertHouseEntries`, and
 * `cashMovementCtes` for a hot path that must move money inside its own statement). Any other file of the
 * server that writes them fails here. In SQL, one function posts a movement: `dau_ledger_post` (migration
 * 0036), which the ledger and the casino's group commit both call; any other SQL function that writes them
 * (in the migrations as they stand after the last one, or in a migrated database) fails here too.
 */
const WRITES = [
  /\binsert\(\s*(bills|houseEntries)\s*\)/,
  /\bINSERT\s+INTO\s+(bills|house_entries)\b/i,
  /\b(cash|credit)_balance\s*=\s*(?!=)/,
  /\bupdate\(\s*bettors\s*\)\s*\.set\(\s*\{[^}]*\b(cashBalance|creditBalance)\b/s,
];
const MONEY = path.join(SRC, 'modules', 'money');

function writers(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const re of WRITES) {
      for (const m of text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g'))) {
        found.push(`${path.relative(SRC, file)}:${text.slice(0, m.index).split('\n').length}: ${m[0].replace(/\s+/g, ' ').slice(0, 60)}`);
      }
    }
  }
  return found.sort();
}

describe('ledger writers', () => {
  it('finds the ledger\'s own writes (the patterns match what the ledger does)', () => {
    const own = writers(tsFiles(MONEY));
    expect(own.some((w) => w.includes('INSERT INTO bills'))).toBe(true);
    expect(own.some((w) => /house_entries|houseEntries/.test(w))).toBe(true);
    expect(own.some((w) => w.includes('cash_balance ='))).toBe(true);
  });

  it('no file outside modules/money writes bills, house entries or balances', () => {
    const outside = tsFiles(SRC).filter((f) => !f.startsWith(MONEY + path.sep));
    expect(writers(outside), 'move the movement to the ledger API of modules/money (money/index.ts)').toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The SQL side: functions the migrations define.

const MIGRATIONS = path.resolve(SRC, '..', 'drizzle');
/** THE posting of one movement (migration 0036): the only SQL function that may write these. */
const THE_POSTING = 'dau_ledger_post';
const TABLE = String.raw`(?:"?\w+"?\.)?"?`;
const SQL_WRITES = [
  new RegExp(String.raw`\b(?:INSERT|MERGE)\s+INTO\s+${TABLE}(?:bills\w*|house_entries)\b`, 'i'),
  new RegExp(String.raw`\b(?:UPDATE|DELETE\s+FROM)\s+(?:ONLY\s+)?${TABLE}(?:bills\w*|house_entries)\b`, 'i'),
  /\b(cash|credit)_balance"?\s*=\s*(?!=)/i,
];

interface SqlFunction {
  name: string;
  file: string;
  source: string;
}

/** The functions a migration's text defines, each with its whole statement (up to the next one). */
function sqlFunctions(file: string, text: string): SqlFunction[] {
  const found: SqlFunction[] = [];
  for (const statement of text.split('--> statement-breakpoint')) {
    const heads = [...statement.matchAll(/\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:"?\w+"?\.)?"?(\w+)"?\s*\(/gi)];
    heads.forEach((m, i) => found.push({ name: m[1]!.toLowerCase(), file, source: statement.slice(m.index, heads[i + 1]?.index ?? statement.length) }));
  }
  return found;
}

/** Each function as the migrations leave it (a later definition replaces an earlier one of the same name). */
function finalFunctions(migrations: { file: string; text: string }[]): Map<string, SqlFunction> {
  const last = new Map<string, SqlFunction>();
  for (const m of [...migrations].sort((a, b) => a.file.localeCompare(b.file))) for (const f of sqlFunctions(m.file, m.text)) last.set(f.name, f);
  return last;
}

const writesMoney = (source: string) => SQL_WRITES.some((re) => re.test(source));

/** Functions other than the one posting that write bills, house entries or balances. */
function sqlWriters(functions: Iterable<{ name: string; source: string; file?: string }>): string[] {
  return [...functions].filter((f) => f.name !== THE_POSTING && writesMoney(f.source)).map((f) => `${f.name}${f.file ? ` (${f.file})` : ''}`).sort();
}

const migrations = () =>
  fs.readdirSync(MIGRATIONS).filter((f) => f.endsWith('.sql')).map((file) => ({ file, text: fs.readFileSync(path.join(MIGRATIONS, file), 'utf8') }));

describe('ledger writers in SQL', () => {
  it('the one posting is a migration\'s function, and writes bills, house entries and the balance', () => {
    const one = finalFunctions(migrations()).get(THE_POSTING);
    expect(one, `${THE_POSTING} is defined by a migration`).toBeDefined();
    expect(/INSERT\s+INTO\s+bills\b/i.test(one!.source)).toBe(true);
    expect(/INSERT\s+INTO\s+house_entries/i.test(one!.source)).toBe(true);
    expect(/cash_balance\s*=/.test(one!.source) && /credit_balance\s*=/.test(one!.source)).toBe(true);
  });

  it('no other function, as the migrations leave it, writes bills, house entries or balances (it calls the one posting)', () => {
    const last = finalFunctions(migrations());
    expect(sqlWriters(last.values()), `post through ${THE_POSTING}(...) (a later migration may change that function, not copy it)`).toEqual([]);
    // The casino's group commit (0027's copy of the posting, twice) is now the one of 0036, which calls it.
    const hot = last.get('dau_casino_hot_batch');
    expect(hot?.file).not.toBe('0027_casino_hot_batch.sql');
    expect(hot?.source).toContain(`${THE_POSTING}(`);
  });

  it('fails on a later migration whose function writes money without the one posting (so the check above can fail)', () => {
    const real = migrations();
    const copy27 = real.find((m) => m.file.startsWith('0027_'))!;
    // 0027's function again in a later migration: its own bill, house entry and balance update.
    expect(sqlWriters(finalFunctions([...real, { file: '9999_later.sql', text: copy27.text }]).values())).toEqual(['dau_casino_hot_batch (9999_later.sql)']);
    const later = (body: string) =>
      sqlWriters(finalFunctions([...real, { file: '9999_later.sql', text: `CREATE OR REPLACE FUNCTION public.dau_later(a integer) RETURNS void LANGUAGE plpgsql AS $f$\nBEGIN\n  ${body};\nEND $f$;` }]).values());
    expect(later('UPDATE bettors SET cash_balance = cash_balance + a WHERE id = a')).toEqual(['dau_later (9999_later.sql)']);
    expect(later('UPDATE bettors SET "credit_balance"=0 WHERE id = a')).toEqual(['dau_later (9999_later.sql)']);
    expect(later("INSERT INTO house_entries (txn_id, account, amount, bill_type) VALUES ('t', 'x', a, 1)")).toEqual(['dau_later (9999_later.sql)']);
    expect(later("INSERT INTO public.bills_default (serial_number) VALUES ('x')")).toEqual(['dau_later (9999_later.sql)']);
    expect(later('DELETE FROM bills WHERE id = a')).toEqual(['dau_later (9999_later.sql)']);
    // Through the one posting: allowed.
    expect(later("PERFORM dau_ledger_post(a, 1::smallint, 100, 1::smallint, 'casino', 'casino', NULL, 'B1', 't1')")).toEqual([]);
  });

  it('in a migrated database, the one posting is the only function that writes bills, house entries or balances', async () => {
    const d = await freshDatabase();
    try {
      const { rows } = (await d.db.execute(sql`
        SELECT p.proname AS name, p.prosrc AS source FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\_%'
          AND p.prolang IN (SELECT oid FROM pg_language WHERE lanname IN ('sql', 'plpgsql'))`)) as unknown as { rows: { name: string; source: string }[] };
      expect(rows.filter((r) => r.name === THE_POSTING)).toHaveLength(1);
      expect(sqlWriters(rows)).toEqual([]);
      const hot = rows.filter((r) => r.name === 'dau_casino_hot_batch');
      expect(hot).toHaveLength(1);
      expect(hot[0]!.source).toContain(`${THE_POSTING}(`);
    } finally {
      await d.dispose();
    }
  });
});
