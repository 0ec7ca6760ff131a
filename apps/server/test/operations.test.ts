/**
 * Operations (issue 16): the server list and its beats, the script runner (allow-list, arguments, dry
 * run, a second admin's approval, streamed and redacted output, audit), the database's locks and
 * sessions (PostgreSQL: a lock held in another connection is seen and released; the server's own
 * connections and other databases are refused; PGlite says what it cannot show) and /metrics.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, like } from 'drizzle-orm';
import { createTestApp, makeAdmin, makeRole, type TestApp } from './helpers.js';
import { roles, systemLogs } from '../src/platform/schema.js';
import { serverProcesses } from '../src/modules/operations/schema.js';
import { redactText } from '../src/modules/operations/redact.js';
import { terminateBackend } from '../src/modules/operations/db-views.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import { installMetrics } from '../src/platform/metrics.js';

const onPg = !!process.env.TEST_DATABASE_URL;
const METRICS_TOKEN = `metrics-${crypto.randomBytes(8).toString('hex')}`;
const SECRET = `s3cr3t-${crypto.randomBytes(6).toString('hex')}`;
const DB_PASSWORD = `pw${crypto.randomBytes(6).toString('hex')}`;

let t: TestApp;
let root: string;
let runner: string;
let approver: string;
let rootId: number;
let self: string;

/** Waits until `probe` answers something truthy (state, not time). */
async function until<T>(probe: () => Promise<T | null | undefined | false>, what: string, tries = 2400): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await probe();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function finished(id: number, token = root) {
  return until(async () => {
    const r = await t.call('GET', `/api/v1/operations/script-runs/${id}/output`, { token });
    return ['succeeded', 'failed', 'interrupted'].includes(r.body.run.status) ? r.body : null;
  }, `run ${id} to finish`);
}

beforeAll(async () => {
  process.env.DAU_METRICS_TOKEN = METRICS_TOKEN;
  process.env.DAU_TEST_API_TOKEN = SECRET;
  process.env.DAU_TEST_REMOTE_URL = `postgres://someone:${DB_PASSWORD}@db.example:5432/x`;
  t = await createTestApp();
  delete process.env.DAU_METRICS_TOKEN;
  root = await t.login('admin', 'Admin#2026pass');
  const [a] = await t.database.db.select().from((await import('../src/platform/schema.js')).admins).limit(1);
  rootId = a!.id;
  const runRole = await makeRole(t, 'Script runner', ['system', 'script', 'script:run', 'server_list']);
  const approveRole = await makeRole(t, 'Script approver', ['system', 'script', 'script:approve']);
  // Scripts act on the whole product: the runner and the approver are staff serving the super admin's (whole) book.
  await t.database.db.update(roles).set({ servesSuperiorBranch: true }).where(inArray(roles.id, [runRole, approveRole]));
  await makeAdmin(t, 'op_runner', runRole, rootId);
  await makeAdmin(t, 'op_approver', approveRole, rootId);
  runner = await t.login('op_runner');
  approver = await t.login('op_approver');
  const servers = await until(async () => {
    const r = await t.call('GET', '/api/v1/operations/servers', { token: root });
    return r.body.rows?.find((s: { current: boolean }) => s.current);
  }, 'this process to register');
  self = servers.id;
}, 120_000);

afterAll(async () => {
  delete process.env.DAU_TEST_API_TOKEN;
  delete process.env.DAU_TEST_REMOTE_URL;
  await t?.close();
});

describe('server list', () => {
  it('lists this process as up with its figures, beats, and shows a silent one as down', async () => {
    const r = await t.call('GET', '/api/v1/operations/servers', { token: root });
    expect(r.status).toBe(200);
    const me = r.body.rows.find((s: { id: string }) => s.id === self);
    expect(me).toMatchObject({ state: 'up', current: true, pid: process.pid, database_kind: t.database.kind });
    expect(me.rss_bytes).toBeGreaterThan(0);
    expect(me.pool_total).toBeGreaterThan(0);
    expect(me.version).toMatch(/^\d+\.\d+\.\d+/);
    const before = me.last_beat_at;
    // The timer beats every 5 s: wait for the next beat.
    await until(async () => {
      const x = await t.call('GET', '/api/v1/operations/servers', { token: root });
      return x.body.rows.find((s: { id: string }) => s.id === self).last_beat_at !== before;
    }, 'a beat', 400);

    const other = crypto.randomUUID();
    const old = new Date(Date.now() - 60_000);
    await t.database.db.insert(serverProcesses).values({ id: other, host: 'other-host', pid: 4242, version: '0.1.0', databaseKind: 'pg', startedAt: old, lastBeatAt: old });
    const both = await t.call('GET', '/api/v1/operations/servers', { token: root });
    expect(both.body.rows.find((s: { id: string }) => s.id === other)).toMatchObject({ state: 'down', current: false, host: 'other-host' });

    // Delete: only a process that is down.
    expect((await t.call('DELETE', `/api/v1/operations/servers/${self}`, { token: root })).status).toBe(409);
    expect((await t.call('DELETE', `/api/v1/operations/servers/${crypto.randomUUID()}`, { token: root })).status).toBe(404);
    expect((await t.call('DELETE', `/api/v1/operations/servers/${other}`, { token: runner })).status).toBe(403);
    expect((await t.call('DELETE', `/api/v1/operations/servers/${other}`, { token: root })).status).toBe(200);
    expect(await t.database.db.select().from(serverProcesses).where(eq(serverProcesses.id, other))).toHaveLength(0);
  }, 60_000);
});

describe('scripts', () => {
  it('lists the allow-list; an unknown script or bad arguments answer 400; a down target 409', async () => {
    const list = await t.call('GET', '/api/v1/operations/scripts', { token: runner });
    expect(list.status).toBe(200);
    const names = list.body.rows.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(['analyse-tables', 'bill-partitions', 'statistics-days', 'ledger-invariants', 'prune-sessions-exports', 'rebuild-console', 'bills-detach-month']));
    expect(list.body.rows.find((s: { name: string }) => s.name === 'rebuild-console').dangerous).toBe(true);

    const unknown = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'rm -rf /', args: {}, target: self } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('SCRIPT_UNKNOWN');
    const badArgs = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'bill-partitions', args: { months: 999 }, target: self } });
    expect(badArgs.status).toBe(400);
    expect(badArgs.body.details[0].field).toBe('args.months');
    const extra = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'ledger-invariants', args: { sql: 'DROP TABLE bills' }, target: self } });
    expect(extra.status).toBe(400);
    const badDays = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'statistics-days', args: { from: '2026-02-01', to: '2026-01-01' }, target: self } });
    expect(badDays.status).toBe(400);
    // Days that are not days are a 400 naming the field (they were a RangeError, 500).
    for (const args of [{ from: '2026-13-45', to: '2026-01-01' }, { from: '2026-01-01', to: 'soon' }, { from: 'x', to: 'y' }]) {
      const r = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'statistics-days', args, target: self } });
      expect(r.status, JSON.stringify(args)).toBe(400);
      expect(r.body.code).toBe('PARAM_INVALID');
    }
    const nowhere = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'ledger-invariants', args: {}, target: crypto.randomUUID() } });
    expect(nowhere.status).toBe(409);
    expect(nowhere.body.code).toBe('SERVER_NOT_RUNNING');
    // Without the run button.
    expect((await t.call('POST', '/api/v1/operations/script-runs', { token: approver, body: { script: 'ledger-invariants', args: {}, target: self } })).status).toBe(403);
  });

  it('runs a script on its target: output streams in order (after=seq) and the run is audited', async () => {
    const r = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'ledger-invariants', args: {}, target: self } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ script: 'ledger-invariants', version: 1, requested_by_account: 'op_runner' });
    expect(['queued', 'running', 'succeeded']).toContain(r.body.status); // the bus may wake the runner before the answer
    const done = await finished(r.body.id, runner);
    expect(done.run.status).toBe('succeeded');
    expect(done.run.result).toEqual({ ok: true, problems: 0 });
    expect(done.lines.map((l: { seq: number }) => l.seq)).toEqual(done.lines.map((_: unknown, i: number) => i + 1));
    expect(done.lines.map((l: { line: string }) => l.line).join('\n')).toContain('the ledger is consistent');
    const tail = await t.call('GET', `/api/v1/operations/script-runs/${r.body.id}/output?after=2`, { token: runner });
    expect(tail.body.lines[0].seq).toBe(3);
    const audit = await t.database.db.select().from(systemLogs).where(like(systemLogs.content, `script run #${r.body.id} %`));
    expect(audit.map((a) => a.content)).toEqual(expect.arrayContaining([expect.stringContaining('requested'), expect.stringContaining('→ succeeded')]));
    const list = await t.call('GET', '/api/v1/operations/script-runs?script=ledger-invariants', { token: runner });
    expect(list.body.rows[0].id).toBe(r.body.id);
  }, 60_000);

  it('a dry run changes nothing: bill partitions are listed, not created', async () => {
    const r = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'bill-partitions', args: { months: 24 }, dry_run: true, target: self } });
    expect(r.status).toBe(201);
    const before = await t.database.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'bills_2%'`, []);
    const done = await finished(r.body.id);
    expect(done.run.status).toBe('succeeded');
    expect(done.run.result.created).toBeUndefined();
    expect(done.lines.some((l: { line: string }) => l.line.includes('would be created'))).toBe(true);
    const after = await t.database.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'bills_2%'`, []);
    expect(after.rows[0].n).toBe(before.rows[0].n);
    // And for real.
    const real = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'bill-partitions', args: { months: 24 }, target: self } });
    const made = await finished(real.body.id);
    expect(made.run.result.created).toBeGreaterThan(0);
    const later = await t.database.query(`SELECT count(*)::int AS n FROM pg_tables WHERE tablename LIKE 'bills_2%'`, []);
    expect(later.rows[0].n).toBe(before.rows[0].n + made.run.result.created);
  }, 60_000);

  it('statistics-days rebuilds the stored hours: the dry run shows the difference, the real run repairs it', async () => {
    const { statsHourly } = await import('../src/modules/betting/schema.js');
    const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
    const day = new Date(hour.getTime() + 3 * 3_600_000).toISOString().slice(0, 10);
    // No order was placed here: a stored row says 5 orders, the orders say none.
    await t.database.db.insert(statsHourly).values({ hour, agentId: 2_147_000_002, turnover: 50_000, orders: 5 });
    const stored = () => t.database.db.select().from(statsHourly).where(eq(statsHourly.agentId, 2_147_000_002));
    const dry = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'statistics-days', args: { from: day, to: day }, dry_run: true, target: self } });
    expect(dry.status).toBe(201);
    const dried = await finished(dry.body.id);
    expect(dried.run.result).toMatchObject({ days: 1, differing_hours: 1, rebuilt: false });
    expect(dried.lines.some((l: { line: string }) => l.line.includes('would fix') && l.line.includes('orders 5 → 0'))).toBe(true);
    expect(await stored()).toHaveLength(1);
    const real = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'statistics-days', args: { from: day, to: day }, target: self } });
    const done = await finished(real.body.id);
    expect(done.run.result).toMatchObject({ differing_hours: 1, rebuilt: true });
    expect(await stored()).toHaveLength(0);
  }, 60_000);

  it('a dangerous script waits for a second admin; the requester cannot approve it, and may withdraw it', async () => {
    // A real run (the dry run needs no approval, below): it waits, and nobody would build the console here.
    const r = await t.call('POST', '/api/v1/operations/script-runs', { token: root, body: { script: 'rebuild-console', args: {}, dry_run: false, target: self } });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('awaiting_approval');
    // The runner never takes it while it waits: a run asked after it is taken and finishes (the runner had
    // its chance at the waiting one), and the waiting one is still waiting.
    const later = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'ledger-invariants', args: {}, target: self } });
    expect(later.status).toBe(201);
    await finished(later.body.id, runner);
    expect((await t.call('GET', `/api/v1/operations/script-runs/${r.body.id}/output`, { token: root })).body.run.status).toBe('awaiting_approval');
    const self_ = await t.call('POST', `/api/v1/operations/script-runs/${r.body.id}/approve`, { token: root });
    expect(self_.status).toBe(403);
    expect(self_.body.code).toBe('SCRIPT_SELF_APPROVAL');
    expect((await t.call('POST', `/api/v1/operations/script-runs/${r.body.id}/approve`, { token: runner })).status).toBe(403); // no approve button
    // Withdrawn: only by the admin who asked for it, only while it waits; then it can no longer be approved.
    const others = await t.call('POST', `/api/v1/operations/script-runs/${r.body.id}/withdraw`, { token: runner });
    expect(others.status).toBe(403);
    expect(others.body.code).toBe('SCRIPT_NOT_YOURS');
    const withdrawn = await t.call('POST', `/api/v1/operations/script-runs/${r.body.id}/withdraw`, { token: root });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body.status).toBe('withdrawn');
    expect((await t.call('POST', `/api/v1/operations/script-runs/${r.body.id}/approve`, { token: approver })).status).toBe(409);
    expect((await t.call('POST', `/api/v1/operations/script-runs/${r.body.id}/withdraw`, { token: root })).status).toBe(409);
    expect((await t.call('POST', `/api/v1/operations/script-runs/${later.body.id}/withdraw`, { token: runner })).status).toBe(409);
    expect((await t.call('POST', '/api/v1/operations/script-runs/99999999/withdraw', { token: root })).status).toBe(404);
    const listed = await t.call('GET', '/api/v1/operations/script-runs?status=withdrawn', { token: root });
    expect(listed.body.rows.map((x: { id: number }) => x.id)).toContain(r.body.id);
    const trail = await t.database.db.select().from(systemLogs).where(like(systemLogs.content, `script run #${r.body.id} %withdrawn%`));
    expect(trail).toHaveLength(1);
  }, 60_000);

  it("a dangerous script's dry run needs no approval: it is queued and runs at once", async () => {
    const r = await t.call('POST', '/api/v1/operations/script-runs', { token: root, body: { script: 'rebuild-console', args: {}, dry_run: true, target: self } });
    expect(r.status).toBe(201);
    expect(r.body.status).not.toBe('awaiting_approval');
    const done = await finished(r.body.id);
    expect(done.run.status).toBe('succeeded');
    expect(done.run.approved_by).toBeNull();
    expect(done.lines.some((l: { line: string }) => l.line.startsWith('would run: npm run build'))).toBe(true);
  }, 60_000);

  it('bills-detach-month: refuses recent, unknown and default-held months; the dry run changes nothing; approved, it detaches into bills_archive_YYYYMM', async () => {
    const q = (text: string, values: unknown[] = []) => t.database.query(text, values);
    const ask = (args: unknown, dry_run = false, token = root) => t.call('POST', '/api/v1/operations/script-runs', { token, body: { script: 'bills-detach-month', args, dry_run, target: self } });
    const list = await t.call('GET', '/api/v1/operations/scripts', { token: root });
    expect(list.body.rows.find((s: { name: string }) => s.name === 'bills-detach-month')).toMatchObject({ version: 1, dangerous: true, changes_data: true });

    // Bad input 400; the current and previous months, a month without a partition, and one held by the default partition 422.
    expect((await ask({ month: '2001-13' })).status).toBe(400);
    expect((await ask({})).status).toBe(400);
    const now = new Date();
    const ym = (d: Date) => d.toISOString().slice(0, 7);
    for (const month of [ym(now), ym(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)))]) {
      const r = await ask({ month });
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('BILL_MONTH_TOO_RECENT');
    }
    const unknown = await ask({ month: '1999-01' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('BILL_PARTITION_MISSING');
    // Two bills of March 2001 with no partition of their own land in the default partition; they sum to zero
    // per account and per transaction, so the ledger stays consistent whatever happens to them.
    const bill = (at: string, amount: number, before: number, txn: string) =>
      q(`INSERT INTO bills (created_at, serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, txn_id)
         VALUES ($1, $2, 2147480000, 1, 1, 1, $3, $4, $5, 'admin', $6)`, [at, `detach-${txn}-${amount}`, amount, before, before + amount, txn]);
    await bill('2001-03-10T10:00:00Z', 500, 0, 'detach-default');
    await bill('2001-03-10T11:00:00Z', -500, 500, 'detach-default');
    const held = await ask({ month: '2001-03' });
    expect(held.status).toBe(422);
    expect(held.body.code).toBe('BILL_PARTITION_DEFAULT');

    // January 2001 gets a partition and two bills; February 2001 a partition too.
    await q(`SELECT dau_ensure_bill_partitions('2001-01-01'::date, 2)`);
    await bill('2001-01-15T10:00:00Z', 700, 0, 'detach-jan');
    await bill('2001-01-15T11:00:00Z', -700, 700, 'detach-jan');
    // A real account whose only bill is of January 2001 (with its journal counter-entry): once the month
    // is detached, the ledger check must still count it (the archive table is read).
    const [acct] = (await q(`INSERT INTO bettors (phone, name, agent_id, invitation_code, cash_balance) VALUES ('255700000777', 'Detach', 1, 'DETACH777', 900) RETURNING id`)).rows as { id: number }[];
    await q(`INSERT INTO bills (created_at, serial_number, bettor_id, agent_id, account_kind, type, amount, balance_before, balance_after, cause_type, txn_id)
             VALUES ('2001-01-20T10:00:00Z', 'detach-acct', $1, 1, 1, 4, 900, 0, 900, 'admin', 'detach-acct')`, [acct!.id]);
    await q(`INSERT INTO house_entries (txn_id, account, amount, bill_type) VALUES ('detach-acct', 'clearing:6', -900, 4)`);
    expect((await q(`SELECT count(*)::int AS n FROM bills_200101`)).rows[0].n).toBe(3);
    // Not the oldest month: January still holds bills.
    const notOldest = await ask({ month: '2001-02' });
    expect(notOldest.status).toBe(422);
    expect(notOldest.body.code).toBe('BILL_MONTH_NOT_OLDEST');

    // The dry run (no approval: it changes nothing) reports and changes nothing.
    const dry = await ask({ month: '2001-01' }, true);
    expect(dry.status).toBe(201);
    expect(dry.body.status).not.toBe('awaiting_approval');
    const dried = await finished(dry.body.id);
    expect(dried.run.status).toBe('succeeded');
    expect(dried.run.result).toMatchObject({ partition: 'bills_200101', archive: 'bills_archive_200101', rows: 3, accounts: 1, allowed: true, detached: false });
    expect(dried.lines.some((l: { line: string }) => l.line.startsWith('would detach bills_200101'))).toBe(true);
    const attached = `SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'bills'::regclass AND inhrelid = to_regclass('bills_200101')`;
    expect((await q(attached)).rows[0].n).toBe(1);
    expect((await q(`SELECT to_regclass('bills_archive_200101') IS NULL AS absent`)).rows[0].absent).toBe(true);

    // The real run waits for a second admin, then detaches: the bills table no longer sees January, the archive table keeps it.
    const ledgerBefore = await checkInvariants(t.database.db);
    expect(ledgerBefore.filter((p) => p.includes(`bettor ${acct!.id} `) || p.includes('detach-acct'))).toEqual([]);
    const real = await ask({ month: '2001-01' });
    expect(real.body.status).toBe('awaiting_approval');
    expect((await t.call('POST', `/api/v1/operations/script-runs/${real.body.id}/approve`, { token: root })).status).toBe(403);
    expect((await t.call('POST', `/api/v1/operations/script-runs/${real.body.id}/approve`, { token: approver })).status).toBe(200);
    const done = await finished(real.body.id);
    expect(done.run.status).toBe('succeeded');
    expect(done.run.result).toMatchObject({ rows: 3, detached: true });
    expect((await q(`SELECT to_regclass('bills_200101') IS NULL AS absent`)).rows[0].absent).toBe(true);
    expect((await q(`SELECT count(*)::int AS n FROM bills_archive_200101`)).rows[0].n).toBe(3);
    expect((await q(`SELECT count(*)::int AS n FROM bills WHERE created_at < '2001-02-01'`)).rows[0].n).toBe(0);
    // The ledger still balances: the account's 900 and its journal transaction are read from the archive.
    expect(await checkInvariants(t.database.db)).toEqual(ledgerBefore);
    // Detached once: asking again is 422.
    const again = await ask({ month: '2001-01' });
    expect(again.status).toBe(422);
    expect(again.body.code).toBe('BILL_PARTITION_MISSING');
    await q(`DELETE FROM bills WHERE bettor_id = 2147480000`);
    await q(`DROP TABLE bills_archive_200101`);
    await q(`DROP TABLE bills_200102`);
    await q(`DELETE FROM house_entries WHERE txn_id = 'detach-acct'`);
    await q(`DELETE FROM bettors WHERE id = $1`, [acct!.id]);
  }, 60_000);

  it("a script's output never contains secrets", async () => {
    const r = await t.call('POST', '/api/v1/operations/script-runs', { token: runner, body: { script: 'server-environment', args: {}, target: self } });
    const done = await finished(r.body.id);
    expect(done.run.status).toBe('succeeded');
    const text = done.lines.map((l: { line: string }) => l.line).join('\n');
    expect(text).toContain('DAU_TEST_API_TOKEN=***');
    expect(text).toContain('DAU_TEST_REMOTE_URL=postgres://someone:***@db.example');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(DB_PASSWORD);
    const stored = await t.database.query(`SELECT string_agg(line, E'\\n') AS s FROM script_run_output`, []);
    expect(stored.rows[0].s).not.toContain(SECRET);
    // The patterns, whatever a script prints.
    const hex = 'ab'.repeat(32);
    const out = redactText(`Authorization: Bearer abcdefghijklmnop ${hex} password=hunter22 -----BEGIN PRIVATE KEY-----\nMIIEv\n-----END PRIVATE KEY----- ${SECRET}`);
    for (const leak of ['abcdefghijklmnop', hex, 'hunter22', 'MIIEv', SECRET]) expect(out).not.toContain(leak);
  }, 60_000);
});

describe('database views', () => {
  it.skipIf(onPg)('on the embedded database the screens say what they cannot show', async () => {
    const locks = await t.call('GET', '/api/v1/operations/locks', { token: root, headers: { 'x-locale': 'sw-KE' } });
    expect(locks.body).toMatchObject({ supported: false, rows: [] });
    expect(locks.body.message).toContain('PostgreSQL');
    const activity = await t.call('GET', '/api/v1/operations/activity', { token: root });
    expect(activity.body.supported).toBe(false);
    expect((await t.call('POST', '/api/v1/operations/locks/123/release', { token: root })).status).toBe(409);
  });

  it.skipIf(!onPg)('a lock held in another connection is seen, its victim too, and released; own and foreign connections are refused', async () => {
    const holder = new pg.Client({ connectionString: t.database.url, application_name: 'psql' });
    const waiter = new pg.Client({ connectionString: t.database.url, application_name: 'psql' });
    const elsewhere = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await Promise.all([holder.connect(), waiter.connect(), elsewhere.connect()]);
    holder.on('error', () => {});
    try {
      const holderPid = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const waiterPid = (await waiter.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      await holder.query('BEGIN');
      await holder.query(`SELECT id FROM admins WHERE id = $1 FOR UPDATE`, [rootId]);
      const blocked = waiter.query(`UPDATE admins SET name = name WHERE id = $1`, [rootId]);
      const seen = await until(async () => {
        const r = await t.call('GET', '/api/v1/operations/locks', { token: root });
        const w = r.body.rows.find((l: { pid: number }) => l.pid === waiterPid);
        return w?.blocked_by.includes(holderPid) ? r.body : null;
      }, 'the blocked update');
      expect(seen.supported).toBe(true);
      const h = seen.rows.find((l: { pid: number }) => l.pid === holderPid);
      expect(h).toMatchObject({ blocking: [waiterPid], own: false, state: 'idle in transaction' });
      expect(h.query).toContain('FOR UPDATE');

      const activity = await t.call('GET', '/api/v1/operations/activity', { token: root });
      expect(activity.body.supported).toBe(true);
      expect(activity.body.rows.find((a: { pid: number }) => a.pid === waiterPid)).toMatchObject({ command: 'Query' });
      expect(activity.body.statements.available || /pg_stat_statements/.test(activity.body.statements.message)).toBe(true);
      // Only the product's database: the session of another database is not listed.
      const elsewherePid = (await elsewhere.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      expect(activity.body.rows.find((a: { pid: number }) => a.pid === elsewherePid)).toBeUndefined();
      expect(activity.body.rows.every((a: { database: string | null }) => a.database === activity.body.rows[0].database)).toBe(true);

      // The terminating statement itself refuses a dau_ connection (a pid reused after the route's checks).
      const ours = new pg.Client({ connectionString: t.database.url, application_name: 'dau_probe' });
      await ours.connect();
      try {
        const oursPid = (await ours.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
        expect(await terminateBackend(t.database, oursPid)).toBe(false);
        expect((await ours.query('SELECT 1 AS one')).rows[0].one).toBe(1);
        const viaRoute = await t.call('POST', `/api/v1/operations/locks/${oursPid}/release`, { token: root });
        expect(viaRoute.status).toBe(409);
        expect(viaRoute.body.code).toBe('LOCK_OWN_CONNECTION');
        expect((await ours.query('SELECT 1 AS one')).rows[0].one).toBe(1);
      } finally {
        await ours.end().catch(() => {});
      }

      // Refused: one of the server's own connections (409), another database's backend (403), without the button (403).
      const own = await t.database.query(`SELECT pid FROM pg_stat_activity WHERE application_name = 'dau_server' AND datname = current_database() LIMIT 1`, []);
      const ownRes = await t.call('POST', `/api/v1/operations/locks/${own.rows[0].pid}/release`, { token: root });
      expect(ownRes.status).toBe(409);
      expect(ownRes.body.code).toBe('LOCK_OWN_CONNECTION');
      const otherPid = (await elsewhere.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const foreign = await t.call('POST', `/api/v1/operations/locks/${otherPid}/release`, { token: root });
      expect(foreign.status).toBe(403);
      expect(foreign.body.code).toBe('LOCK_NOT_OURS');
      expect((await t.call('POST', `/api/v1/operations/locks/${holderPid}/release`, { token: runner })).status).toBe(403);

      const released = await t.call('POST', `/api/v1/operations/locks/${holderPid}/release`, { token: root });
      expect(released.status).toBe(200);
      await blocked; // the waiting update goes through once the holder is gone
      const audit = await t.database.db.select().from(systemLogs).where(like(systemLogs.content, `released database lock: terminated backend ${holderPid}`));
      expect(audit).toHaveLength(1);
      expect((await t.call('POST', `/api/v1/operations/locks/${holderPid}/release`, { token: root })).status).toBe(404);
    } finally {
      await Promise.all([holder.end().catch(() => {}), waiter.end().catch(() => {}), elsewhere.end().catch(() => {})]);
    }
  }, 60_000);
});

describe('/metrics', () => {
  it('needs the token; answers Prometheus text with latency, queues, throughput, sockets and pool', async () => {
    expect((await t.call('GET', '/metrics')).status).toBe(401);
    expect((await t.call('GET', '/metrics', { token: 'wrong' })).status).toBe(401);
    expect((await t.call('GET', '/metrics', { token: root })).status).toBe(401);
    await t.call('GET', '/api/v1/operations/servers', { token: root });
    const r = await t.call('GET', '/metrics', { token: METRICS_TOKEN });
    expect(r.status).toBe(200);
    expect(r.res.headers['content-type']).toContain('text/plain');
    const text = String(r.body);
    expect(text).toMatch(/dau_http_request_duration_seconds_count\{method="GET",route="\/api\/v1\/operations\/servers",status="200"\} \d+/);
    expect(text).toMatch(/dau_job_queue_depth\{queue="exports\.run"\} \d+/);
    expect(text).toContain('dau_settled_orders_total');
    expect(text).toContain('dau_wallet_calls_total');
    expect(text).toMatch(/dau_socket_clients \d+/);
    expect(text).toMatch(/dau_db_pool_connections\{state="total"\} [1-9]/);
  });

  it('answers 404 when no token is configured', async () => {
    const bare = Fastify();
    installMetrics(bare, { database: t.database, token: '' });
    const r = await bare.inject({ method: 'GET', url: '/metrics' });
    expect(r.statusCode).toBe(404);
    await bare.close();
  });
});
