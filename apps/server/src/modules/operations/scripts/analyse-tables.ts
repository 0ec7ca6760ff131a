import { z } from 'zod';
import { defineScript } from './types.js';

/** ANALYZE the product's tables (all, or one by name) so the planner has fresh statistics. */
export const analyseTables = defineScript({
  name: 'analyse-tables',
  version: 1,
  dangerous: false,
  changesData: false,
  args: z.strictObject({ table: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/).optional() }),
  fields: [{ name: 'table', type: 'text', required: false }],
  async run(sc, args) {
    const { rows } = await sc.database.query(
      `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND ($1::text IS NULL OR tablename = $1::text) ORDER BY tablename`,
      [args.table ?? null],
    );
    if (args.table && !rows.length) {
      await sc.out(`no table named ${args.table}`);
      return { analysed: 0 };
    }
    for (const r of rows as { tablename: string }[]) {
      const started = Date.now();
      await sc.database.exec(`ANALYZE "${r.tablename.replace(/"/g, '""')}"`);
      await sc.out(`analysed ${r.tablename} (${Date.now() - started} ms)`);
    }
    return { analysed: rows.length };
  },
});
