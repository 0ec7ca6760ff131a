import { z } from 'zod';
import { sql } from 'drizzle-orm';
import { ARCHIVE_SPLIT_DAYS } from '@dau/domain';
import type { Database } from '../../../platform/db.js';
import { defineScript, type ScriptRefusal } from './types.js';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DAY_MS = 86_400_000;

/** What the detach of a month would do, and whether it may (the dry run prints it; the request and the run check it). */
export interface DetachPlan {
  month: string;
  partition: string;
  archive: string;
  start: Date;
  end: Date;
  attached: boolean;
  rows: number;
  /** Accounts (bettor × kind) whose bills of the month do not sum to zero: `balance = sum of bills` then no longer holds for them. */
  accounts: number;
  refusal: ScriptRefusal | null;
}

/** The UTC month start (partitions are calendar months in UTC, migration 0001). */
const monthStart = (y: number, m0: number) => new Date(Date.UTC(y, m0, 1));

export async function planDetach(database: Database, month: string, now = new Date()): Promise<DetachPlan> {
  const [, y, m] = MONTH.exec(month)!;
  const ym = `${y}${m}`;
  const start = monthStart(Number(y), Number(m) - 1);
  const end = monthStart(Number(y), Number(m));
  const partition = `bills_${ym}`;
  const archive = `bills_archive_${ym}`;
  const plan: DetachPlan = { month, partition, archive, start, end, attached: false, rows: 0, accounts: 0, refusal: null };
  // The current and previous months, and any month that ended within the 30 days the bill lists read.
  const previous = monthStart(now.getUTCFullYear(), now.getUTCMonth() - 1);
  if (end > previous || end.getTime() > now.getTime() - ARCHIVE_SPLIT_DAYS * DAY_MS) {
    plan.refusal = { code: 'BILL_MONTH_TOO_RECENT', params: { month } };
    return plan;
  }
  const { rows: part } = await database.query(
    `SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'bills'::regclass AND c.relname = $1`,
    [partition],
  );
  plan.attached = part.length === 1 && part[0].bound !== 'DEFAULT';
  if (!plan.attached) {
    const { rows: inDefault } = await database.query(
      `SELECT EXISTS (SELECT 1 FROM bills_default WHERE created_at >= $1 AND created_at < $2) AS yes`,
      [start.toISOString(), end.toISOString()],
    );
    plan.refusal = inDefault[0]?.yes ? { code: 'BILL_PARTITION_DEFAULT', params: { month } } : { code: 'BILL_PARTITION_MISSING', params: { month } };
    return plan;
  }
  // The names are built from the validated month only (digits), so quoting them is enough.
  const { rows: counts } = await database.query(
    `SELECT count(*)::int AS n,
            (SELECT count(*)::int FROM (SELECT 1 FROM "${partition}" GROUP BY bettor_id, account_kind HAVING sum(amount) <> 0) a) AS accounts
       FROM "${partition}"`,
    [],
  );
  plan.rows = Number(counts[0]?.n ?? 0);
  plan.accounts = Number(counts[0]?.accounts ?? 0);
  const { rows: older } = await database.query(`SELECT EXISTS (SELECT 1 FROM bills WHERE created_at < $1) AS yes`, [start.toISOString()]);
  if (older[0]?.yes) {
    plan.refusal = { code: 'BILL_MONTH_NOT_OLDEST', params: { month } };
    return plan;
  }
  const { rows: taken } = await database.query(`SELECT to_regclass($1) IS NOT NULL AS yes`, [archive]);
  if (taken[0]?.yes) plan.refusal = { code: 'BILL_ARCHIVE_EXISTS', params: { table: archive } };
  return plan;
}

/**
 * Detaches an archived month of bills (monthly range partitions of `bills`, migration 0001) into a
 * standalone table `bills_archive_YYYYMM` kept in the database: nothing is deleted, but from then on no
 * screen reads it: the bill archive lookups (bill_archive, bill_credit_archive), an order's bills on its
 * detail and the first-deposit lookup of promotions no longer see that month. The ledger check
 * (money's checkInvariants) reads the archive tables with `bills`, so every account still sums.
 *
 * Allowed only for a partition of a month that ended before the previous month began and more than 30
 * days ago (never the current or previous month, never inside the bill lists' 30 days), oldest month
 * first (no older bill left in `bills`, so the balance chain of what remains stays unbroken), never the
 * default partition. Dangerous: a second admin approves. The dry run prints the partition, its rows, the
 * accounts whose sum it carries and whether it is allowed; the real run detaches and renames in one
 * transaction under a 5 s lock timeout (DETACH takes the bills table's lock for a moment).
 */
export const billsDetachMonth = defineScript({
  name: 'bills-detach-month',
  version: 1,
  dangerous: true,
  changesData: true,
  args: z.strictObject({ month: z.string().regex(MONTH, 'a month YYYY-MM') }),
  fields: [{ name: 'month', type: 'text', required: true }],
  async precheck(sc, args) {
    return (await planDetach(sc.database, args.month)).refusal;
  },
  async run(sc, args) {
    const plan = await planDetach(sc.database, args.month);
    await sc.out(`partition ${plan.partition}: ${plan.attached ? `${plan.rows} bill(s), ${plan.accounts} account(s) with a non-zero sum in it` : 'not attached'}`);
    const result = { partition: plan.partition, archive: plan.archive, rows: plan.rows, accounts: plan.accounts, allowed: !plan.refusal, detached: false };
    if (plan.refusal) {
      await sc.out(`not allowed: ${plan.refusal.code}`);
      if (sc.dryRun) return result;
      throw new Error(`${plan.refusal.code}: ${plan.partition} cannot be detached`);
    }
    if (sc.dryRun) {
      await sc.out(`would detach ${plan.partition} from bills and keep it as ${plan.archive} (no longer read by the archive lookups)`);
      return result;
    }
    await sc.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL lock_timeout = '5s'`);
      // Checked again inside the transaction that detaches: nothing older slipped in meanwhile.
      const older = (await tx.execute(sql`SELECT EXISTS (SELECT 1 FROM bills WHERE created_at < ${plan.start.toISOString()}) AS yes`)) as unknown as { rows: { yes: boolean }[] };
      if (older.rows[0]?.yes) throw new Error(`BILL_MONTH_NOT_OLDEST: bills older than ${plan.month} appeared`);
      await tx.execute(sql.raw(`ALTER TABLE bills DETACH PARTITION "${plan.partition}"`));
      await tx.execute(sql.raw(`ALTER TABLE "${plan.partition}" RENAME TO "${plan.archive}"`));
    });
    await sc.out(`detached ${plan.partition}: kept as ${plan.archive} (${plan.rows} bill(s))`);
    return { ...result, detached: true };
  },
});
