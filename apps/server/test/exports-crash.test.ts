/**
 * An export cut by a crash is run again (issue 11 finding 4). A real server process on PostgreSQL is
 * asked for a large export and killed with SIGKILL while it writes it; after the restart the export is
 * queued again (its heartbeat stopped: `exports.revive`), runs to the end, and its file holds every row
 * once. Before the job queue it was marked abnormal ("interrupted") two minutes after the restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, processDatabase, startServerProcess, waitFor, type ProcessDatabase, type ServerProcess } from './support/processes.js';

/** Bills in the recent window: enough for an export that runs a few seconds. */
const ROWS = 300_000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('an export cut by kill -9 of its server (PostgreSQL, server process)', () => {
  let pdb: ProcessDatabase;
  let server: ServerProcess;
  let dataDir: string;

  beforeAll(async () => {
    pdb = await processDatabase({ prefix: 'dau_exp' });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-exp-crash-'));
    await pdb.database.exec(`INSERT INTO bettors (phone, name, agent_id) SELECT '+255700000001', 'Crash test', id FROM admins WHERE account = 'admin'`);
    await pdb.database.exec(
      `INSERT INTO bills (created_at, serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, txn_id)
       SELECT now() - make_interval(secs => i), 'CRASH' || lpad(i::text, 7, '0'), b.id, b.agent_id, 1, 1, 100, (i - 1) * 100, i * 100, 'admin', 'crash-' || i
       FROM bettors b, generate_series(1, ${ROWS}) i`,
    );
    // Statistics, as a live database has them (unanalysed, the list's keyset queries are 4 times slower).
    await pdb.database.exec('ANALYZE bills');
    // The heartbeat's watch cannot help here (an hour): the export's job, handed on when its process died,
    // takes the row over (production: 60 s, looked for every 30 s, for what the job queue cannot see).
    server = await startServerProcess(pdb.url, { name: 'exports', env: { DAU_DATA_DIR: dataDir, DAU_EXPORT_STALE_SECONDS: '3600' } });
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    await pdb?.dispose();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs it again after the restart, to the end: every row once, in a readable file', { timeout: 600_000 }, async () => {
    const token = await server.login();
    const asked = expectStatus(await server.api('POST', '/api/v1/exports', { type: 'bill', format: 1, params: {} }, token), 202, 'export request', server);
    const row = async () =>
      (await pdb.database.query('SELECT status, row_count, file_path, error_message FROM async_operations WHERE id = $1', [asked.id])).rows[0] as {
        status: number; row_count: number; file_path: string | null; error_message: string | null;
      };
    // Its first heartbeat with rows written: the export is half way.
    await waitFor('the export to write rows', async () => {
      const r = await row();
      return r.status === 1 && r.row_count > 0;
    }, { output: server.output });
    await server.kill();
    const cut = await row();
    expect(cut.status, 'the export ended before the kill: raise ROWS').toBe(1);
    expect(cut.row_count).toBeLessThan(ROWS);
    const exportsDir = path.join(dataDir, 'exports');
    expect(fs.readdirSync(exportsDir)).toEqual([`${cut.file_path}.part`]);

    await server.restart();
    const done = await waitFor('the export to end', async () => {
      const r = await row();
      return r.status !== 1 && r;
    }, { output: server.output });
    expect(done, server.output()).toMatchObject({ status: 2, row_count: ROWS, error_message: null });
    // Run twice: the cut run and the one after the restart.
    expect((await pdb.database.query('SELECT attempts FROM async_operations WHERE id = $1', [asked.id])).rows[0].attempts).toBe(2);
    // The cut run's partial file is gone; the file left is the finished one.
    expect(fs.readdirSync(exportsDir)).toEqual([done.file_path]);

    const res = await fetch(`${server.baseUrl}/api/v1/system/async_operations/${asked.id}/download`, { headers: { authorization: `Bearer ${await server.login()}` } });
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(1 + ROWS);
    const serials = new Set(lines.slice(1).map((l) => l.slice(0, l.indexOf(','))));
    expect(serials.size).toBe(ROWS);
    expect(serials.has('CRASH0000001') && serials.has(`CRASH${String(ROWS).padStart(7, '0')}`)).toBe(true);
  });
});
