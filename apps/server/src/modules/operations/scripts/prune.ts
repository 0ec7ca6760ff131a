import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineScript } from './types.js';

/**
 * Removes sessions that expired or were revoked more than `session_days` ago and finished exports
 * (completed or failed) older than `export_days`, with their files. The dry run only counts them.
 */
export const prune = defineScript({
  name: 'prune-sessions-exports',
  version: 1,
  dangerous: false,
  changesData: true,
  args: z.strictObject({ session_days: z.number().int().min(1).max(3650).default(7), export_days: z.number().int().min(1).max(3650).default(30) }),
  fields: [
    { name: 'session_days', type: 'int', required: false, default: 7, min: 1, max: 3650 },
    { name: 'export_days', type: 'int', required: false, default: 30, min: 1, max: 3650 },
  ],
  async run(sc, args) {
    const sessionWhere = `least(idle_expires_at, absolute_expires_at, coalesce(revoked_at, 'infinity')) < now() - $1::int * interval '1 day'`;
    const exportWhere = `status <> 1 AND created_at < now() - $1::int * interval '1 day'`;
    if (sc.dryRun) {
      const s = await sc.database.query(`SELECT count(*)::int AS n FROM sessions WHERE ${sessionWhere}`, [args.session_days]);
      const e = await sc.database.query(`SELECT count(*)::int AS n FROM async_operations WHERE ${exportWhere}`, [args.export_days]);
      await sc.out(`would remove ${s.rows[0].n} session(s) and ${e.rows[0].n} export(s)`);
      return { sessions: Number(s.rows[0].n), exports: Number(e.rows[0].n) };
    }
    const s = await sc.database.query(`DELETE FROM sessions WHERE ${sessionWhere} RETURNING 1`, [args.session_days]);
    await sc.out(`removed ${s.rows.length} session(s)`);
    const e = await sc.database.query(`DELETE FROM async_operations WHERE ${exportWhere} RETURNING file_path`, [args.export_days]);
    const dir = path.join(sc.app.dataDir, 'exports');
    for (const r of e.rows as { file_path: string | null }[]) {
      if (r.file_path) await fs.rm(path.join(dir, path.basename(r.file_path)), { force: true }).catch(() => {});
    }
    await sc.out(`removed ${e.rows.length} export(s) and their files`);
    return { sessions: s.rows.length, exports: e.rows.length };
  },
});
