import { z } from 'zod';
import { defineScript } from './types.js';

/**
 * Creates the bill partitions of the coming months (bills are range-partitioned by month, migration
 * 0001's `dau_ensure_bill_partitions`). The dry run lists the months that have no partition yet.
 */
export const billPartitions = defineScript({
  name: 'bill-partitions',
  version: 1,
  dangerous: false,
  changesData: true,
  args: z.strictObject({ months: z.number().int().min(1).max(24).default(3) }),
  fields: [{ name: 'months', type: 'int', required: false, default: 3, min: 1, max: 24 }],
  async run(sc, args) {
    const { rows } = await sc.database.query(
      `SELECT to_char(m, 'YYYYMM') AS month, to_regclass('bills_' || to_char(m, 'YYYYMM')) IS NOT NULL AS present
         FROM generate_series(date_trunc('month', now()), date_trunc('month', now()) + ($1::int - 1) * interval '1 month', interval '1 month') AS m`,
      [args.months],
    );
    const missing = (rows as { month: string; present: boolean }[]).filter((r) => !r.present).map((r) => r.month);
    for (const r of rows as { month: string; present: boolean }[]) await sc.out(`bills_${r.month}: ${r.present ? 'present' : sc.dryRun ? 'missing (would be created)' : 'missing'}`);
    if (sc.dryRun) return { missing: missing.length };
    const made = await sc.database.query(`SELECT dau_ensure_bill_partitions(date_trunc('month', now())::date, $1::int) AS made`, [args.months]);
    const created = Number(made.rows[0]?.made ?? 0);
    await sc.out(`created ${created} partition(s)`);
    return { missing: missing.length, created };
  },
});
