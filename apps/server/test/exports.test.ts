import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, enumLabel } from '@dau/domain';
import { asyncOperations, bills } from '../src/schema.js';
import { HOUSE, post } from '../src/modules/money/ledger.js';
import { notifications } from '../src/modules/notices/schema.js';
import { admins } from '../src/platform/schema.js';
import { defineList, listSpecs, optionalInt, scopeCondition } from '../src/platform/listing.js';
import { ExportCancelled, runExport } from '../src/modules/exports/run.js';
import { EXPORT_RUN_JOB, INTERRUPTED } from '../src/modules/exports/jobs.js';
import { exportJobsOf } from '../src/modules/exports/routes.js';
import { buildApp } from '../src/app.js';
import { openPostgres } from '../src/platform/db.js';
import { XlsxWriter } from '../src/modules/exports/writers.js';
import { ADMIN_PASSWORD, createTestApp, exportFinished, makeAdmin, makeRole, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';

/** The entries of a ZIP archive, read from its central directory (what a spreadsheet program does). */
function unzip(buf: Buffer): Map<string, Buffer> {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(0);
  const entries = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const out = new Map<string, Buffer>();
  for (let i = 0; i < entries; i++) {
    expect(buf.readUInt32LE(p)).toBe(0x02014b50);
    const method = buf.readUInt16LE(p + 10);
    const crc = buf.readUInt32LE(p + 16);
    const csize = buf.readUInt32LE(p + 20);
    const size = buf.readUInt32LE(p + 24);
    const nlen = buf.readUInt16LE(p + 28);
    const elen = buf.readUInt16LE(p + 30);
    const clen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.subarray(p + 46, p + 46 + nlen).toString('utf8');
    expect(buf.readUInt32LE(local)).toBe(0x04034b50);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(start, start + csize);
    const data = method === 8 ? zlib.inflateRawSync(raw) : raw;
    expect(data.length, name).toBe(size);
    expect(zlib.crc32(data) >>> 0, name).toBe(crc);
    out.set(name, data);
    p += 46 + nlen + elen + clen;
  }
  return out;
}

const BOOM = 'test_export_boom';
const SLOW = 'test_export_slow';
/** Queries run by SLOW jobs: one per job (their rows fit one batch). */
let slowQueries = 0;

let t: TestApp;
let superToken: string;
let tokA: string;
let tokB: string;
let tokNoExport: string;
let ids: { rootId: number; expA: number; expA1: number; expB: number; noExport: number };
const serials: { a: string[]; a1: string[]; b: string[] } = { a: [], a1: [], b: [] };

const waitDone = (id: number) => exportFinished(t, id);

async function exportAndWait(token: string, body: Record<string, unknown>) {
  const res = await t.call('POST', '/api/v1/exports', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body.status).toBe(1);
  return { queued: res.body, row: await waitDone(res.body.id) };
}

/** Queues an export the way the request does: its row and its run job in one transaction. */
async function queueExport(values: typeof asyncOperations.$inferInsert) {
  return t.database.db.transaction(async (tx) => {
    const [op] = await tx.insert(asyncOperations).values(values).returning();
    await exportJobsOf(t.ctx)!.queue(tx, op.id);
    return op;
  });
}

/** Run jobs of an export: all of them, or those not finished yet (created, retry or active). */
async function runJobsOf(id: number, which: 'all' | 'unfinished' = 'unfinished') {
  const states = which === 'all' ? '' : `AND state IN ('created', 'retry', 'active')`;
  const { rows } = await t.database.query(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND data->>'id' = $2 ${states}`, [EXPORT_RUN_JOB, String(id)]);
  return Number(rows[0].n);
}

const csvLines = (buf: Buffer | string) => (typeof buf === 'string' ? buf : buf.toString('utf8')).split('\n').filter(Boolean);

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const [{ id: rootId }] = await db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  const exporter = await makeRole(t, 'Exporter', ['bill', 'bill:export', 'async_operations', 'async_operations:download', 'async_operations:delete']);
  const viewer = await makeRole(t, 'Bill viewer', ['bill', 'async_operations', 'async_operations:download']);
  const expA = await makeAdmin(t, 'exp_a', exporter, rootId);
  const expA1 = await makeAdmin(t, 'exp_a1', exporter, expA);
  const expB = await makeAdmin(t, 'exp_b', exporter, rootId);
  const noExport = await makeAdmin(t, 'no_export', viewer, rootId);
  ids = { rootId, expA, expA1, expB, noExport };

  // Bettors in three branches, each with a recharge and a withdrawal; one remark a spreadsheet would run.
  for (const [agent, list, remark] of [
    [expA, serials.a, '=HYPERLINK("http://x.example","click")'],
    [expA1, serials.a1, 'plain, with "quotes"'],
    [expB, serials.b, '@SUM(A1)'],
  ] as const) {
    const b = await makeBettor(t, agent, { cash: 1_234_56 });
    const w = await db.transaction((tx) =>
      post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: -20_50, type: BILL_TYPE.user_withdrawal, cause: { type: 'withdrawal' }, house: HOUSE.withdrawalsClearing, remark }),
    );
    const all = await db.select({ s: bills.serialNumber }).from(bills).where(eq(bills.bettorId, b.id));
    list.push(...all.map((x) => x.s));
    expect(list).toContain(w.serialNumber);
  }

  // A list whose query fails at run time (division by zero in the WHERE clause), as a broken list would.
  listSpecs().set(
    BOOM,
    defineList({
      name: BOOM,
      page: 'bill',
      path: '/test/boom',
      filters: z.object({ boom: optionalInt }),
      where: (q, scope) => and(scopeCondition(scope, bills.agentId), q.boom ? sql`1 / (${q.boom}::int - ${q.boom}::int) = 1` : undefined),
      select: (ex) => ex.select({ id: bills.id, serial_number: bills.serialNumber }).from(bills),
      idColumn: bills.id,
      sortable: { id: bills.id },
      defaultSort: '-id',
      toRow: (r) => r,
      columns: [{ key: 'id' }, { key: 'serial_number' }],
    }),
  );

  // A list whose every query takes a while, so that jobs overlap.
  const boom = listSpecs().get(BOOM)!;
  listSpecs().set(SLOW, {
    ...boom,
    name: SLOW,
    where: (_q, scope) => and(scopeCondition(scope, bills.agentId), sql`(select 1 from pg_sleep(0.15)) = 1`),
    select: (ex) => {
      slowQueries++;
      return boom.select(ex);
    },
  });

  superToken = await t.login('admin', ADMIN_PASSWORD);
  tokA = await t.login('exp_a');
  tokB = await t.login('exp_b');
  tokNoExport = await t.login('no_export');
});

afterAll(async () => {
  listSpecs().delete(BOOM);
  listSpecs().delete(SLOW);
  await t?.close();
});

describe('exports', () => {
  it('the real bill list is registered (exports run it)', () => {
    expect(listSpecs().get('bill')?.page).toBe('bill');
  });

  it('exports a list to CSV: BOM, headers from the columns, labels, decimal amounts, defused formulas', async () => {
    const { queued, row } = await exportAndWait(superToken, { type: 'bill', format: 1, params: { page: 3, page_size: 5, sort: '-id' } });
    expect(queued.account).toBe('admin');
    expect(queued.download_url).toBeNull();
    expect(row.status).toBe(2);
    expect(row.errorMessage).toBeNull();
    const all = [...serials.a, ...serials.a1, ...serials.b];
    expect(row.rowCount).toBe(all.length);

    const list = await t.call('GET', '/api/v1/system/async_operations?type=bill&status=2', { token: superToken });
    expect(list.status).toBe(200);
    const item = list.body.items.find((x: { id: number }) => x.id === row.id);
    expect(item).toMatchObject({ account: 'admin', type: 'bill', format: 1, status: 2, row_count: all.length, download_url: `/api/v1/system/async_operations/${row.id}/download` });
    expect(item.file_name).toMatch(/^bill-\d{8}-\d{6}\.csv$/);

    const dl = await t.call('GET', item.download_url, { token: superToken });
    expect(dl.status).toBe(200);
    expect(dl.res.headers['content-type']).toContain('text/csv');
    expect(String(dl.res.headers['content-disposition'])).toContain(`filename="${item.file_name}"`);
    const raw = dl.res.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csvLines(raw.subarray(3));
    const spec = listSpecs().get('bill')!;
    expect(lines[0]).toBe(spec.columns.map((c) => c.key).join(','));
    expect(lines).toHaveLength(1 + all.length);
    for (const s of all) expect(lines.some((l) => l.startsWith(`${s},`)), s).toBe(true);
    const text = raw.toString('utf8');
    expect(text).toContain(`,${enumLabel('bill_type', BILL_TYPE.user_recharge, 'en-US')},1234.56,0.00,1234.56,`);
    expect(text).toContain(`,${enumLabel('bill_type', BILL_TYPE.user_withdrawal, 'en-US')},-20.50,1234.56,1214.06,`);
    // Text a spreadsheet would run is quoted with an apostrophe; amounts (even negative) are left alone.
    expect(text).toContain(`"'=HYPERLINK(""http://x.example"",""click"")"`);
    expect(text).toContain(`,'@SUM(A1),`);
    expect(text).toContain(`,"plain, with ""quotes""",`);
    expect(text).not.toMatch(/,=HYPERLINK|,@SUM/);

    // The asker is told on their notices.
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.adminId, ids.rootId)).orderBy(desc(notifications.id));
    expect(notes.some((n) => /^Your export #\d+ \(bill\) is ready: /.test(n.content) && n.content.includes(`${all.length} rows`))).toBe(true);
  });

  it('writes enum labels in the language stored with the job', async () => {
    const { row } = await exportAndWait(superToken, { type: 'bill', format: 1, params: {}, locale: 'sw-KE' });
    expect(row.status).toBe(2);
    expect((row.params as { locale: string }).locale).toBe('sw-KE');
    const dl = await t.call('GET', `/api/v1/system/async_operations/${row.id}/download`, { token: superToken });
    expect(dl.res.rawPayload.toString('utf8')).toContain(`,${enumLabel('bill_type', BILL_TYPE.user_recharge, 'sw-KE')},`);
    expect(dl.res.rawPayload.toString('utf8')).not.toContain(`,${enumLabel('bill_type', BILL_TYPE.user_recharge, 'en-US')},`);
  });

  it('exports XLSX as a valid zip whose sheet holds the rows', async () => {
    const { row } = await exportAndWait(superToken, { type: 'bill', format: 2, params: { bettor_id: undefined } });
    expect(row.status).toBe(2);
    const dl = await t.call('GET', `/api/v1/system/async_operations/${row.id}/download`, { token: superToken });
    expect(dl.status).toBe(200);
    expect(dl.res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const files = unzip(dl.res.rawPayload);
    expect([...files.keys()].sort()).toEqual(
      ['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml'].sort(),
    );
    const sheet = files.get('xl/worksheets/sheet1.xml')!.toString('utf8');
    expect(sheet.startsWith('<?xml')).toBe(true);
    expect(sheet.endsWith('</sheetData></worksheet>')).toBe(true);
    expect(sheet.match(/<row /g)).toHaveLength(1 + row.rowCount);
    expect(sheet).toContain('<t>serial_number</t>');
    for (const s of [...serials.a, ...serials.b]) expect(sheet).toContain(`<t>${s}</t>`);
    expect(sheet).toContain('<c s="2"><v>1234.56</v></c>');
    expect(sheet).toContain('<c s="2"><v>-20.50</v></c>');
    expect(sheet).toContain(`<t>${enumLabel('bill_type', BILL_TYPE.user_withdrawal, 'en-US')}</t>`);
    // Text stays text (inline strings are never formulas), XML-escaped.
    expect(sheet).toContain('<t>=HYPERLINK(&quot;http://x.example&quot;,&quot;click&quot;)</t>');
    expect(files.get('xl/workbook.xml')!.toString()).toContain('<sheet name="bill" sheetId="1" r:id="rId1"/>');
  });

  it('applies the asker\'s scope: an agent\'s export has their subtree and nothing of another branch', async () => {
    const { row } = await exportAndWait(tokA, { type: 'bill', format: 1, params: {} });
    expect(row.status).toBe(2);
    expect(row.rowCount).toBe(serials.a.length + serials.a1.length);
    const dl = await t.call('GET', `/api/v1/system/async_operations/${row.id}/download`, { token: tokA });
    expect(dl.status).toBe(200);
    const text = dl.res.rawPayload.toString('utf8');
    for (const s of [...serials.a, ...serials.a1]) expect(text).toContain(s);
    for (const s of serials.b) expect(text).not.toContain(s);

    // With a filter, the filter and the scope both apply: agent B asking for A's bettor gets nothing.
    const [aBill] = await t.database.db.select({ bettorId: bills.bettorId }).from(bills).where(eq(bills.serialNumber, serials.a[0]));
    const other = await exportAndWait(tokB, { type: 'bill', format: 1, params: { bettor_id: aBill.bettorId } });
    expect(other.row.status).toBe(2);
    expect(other.row.rowCount).toBe(0);
    const empty = await t.call('GET', `/api/v1/system/async_operations/${other.row.id}/download`, { token: tokB });
    expect(csvLines(empty.res.rawPayload.subarray(3))).toEqual([listSpecs().get('bill')!.columns.map((c) => c.key).join(',')]);
  });

  it('lets only the asker or a super admin list, download and delete a job', async () => {
    const { row } = await exportAndWait(tokA, { type: 'bill', format: 1, params: {} });
    const url = `/api/v1/system/async_operations/${row.id}/download`;
    const b = await t.call('GET', url, { token: tokB });
    expect(b.status).toBe(403);
    expect(b.body.code).toBe('OUT_OF_SCOPE');
    expect((await t.call('GET', url, { token: tokA })).status).toBe(200);
    expect((await t.call('GET', url, { token: superToken })).status).toBe(200);

    // A job of B's and one of the super admin's, whatever the other cases made before.
    await exportAndWait(tokB, { type: 'bill', format: 1, params: {} });
    await exportAndWait(superToken, { type: 'bill', format: 1, params: {} });
    const listB = await t.call('GET', '/api/v1/system/async_operations?page_size=200', { token: tokB });
    expect(listB.status).toBe(200);
    expect(listB.body.items.length).toBeGreaterThan(0);
    expect(listB.body.items.every((x: { account: string }) => x.account === 'exp_b')).toBe(true);
    const listSuper = await t.call('GET', '/api/v1/system/async_operations?page_size=200', { token: superToken });
    // Everyone's jobs (other cases may have queued some for further admins).
    expect([...new Set(listSuper.body.items.map((x: { account: string }) => x.account))]).toEqual(expect.arrayContaining(['admin', 'exp_a', 'exp_b']));

    // Not completed: 409. Missing: 404.
    const [failed] = await t.database.db
      .insert(asyncOperations)
      .values({ adminId: ids.expA, type: 'bill', format: 1, params: {}, status: 3, errorMessage: 'x' })
      .returning();
    const notDone = await t.call('GET', `/api/v1/system/async_operations/${failed.id}/download`, { token: tokA });
    expect(notDone.status).toBe(409);
    expect((await t.call('GET', '/api/v1/system/async_operations/999999/download', { token: superToken })).status).toBe(404);

    // Delete: not someone else's; the asker's delete removes the row and the file.
    const file = path.join(t.ctx.dataDir, 'exports', row.filePath!);
    expect(fs.existsSync(file)).toBe(true);
    const delB = await t.call('DELETE', `/api/v1/system/async_operations/${row.id}`, { token: tokB });
    expect(delB.status).toBe(403);
    expect(delB.body.code).toBe('OUT_OF_SCOPE');
    const delA = await t.call('DELETE', `/api/v1/system/async_operations/${row.id}`, { token: tokA });
    expect(delA.status).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
    expect(await t.database.db.select().from(asyncOperations).where(eq(asyncOperations.id, row.id))).toEqual([]);
    expect((await t.call('GET', url, { token: tokA })).status).toBe(404);
  });

  it('ends a job whose query fails as abnormal, with a sentence and no file', async () => {
    const { row } = await exportAndWait(superToken, { type: BOOM, format: 2, params: { boom: 7 } });
    expect(row.status).toBe(3);
    expect(row.errorMessage).toMatch(/^The database refused the export query \(SQLSTATE 22012\)\./);
    expect(row.errorMessage).not.toMatch(/select|\n|at /i);
    expect(row.filePath).toBeNull();
    expect(fs.readdirSync(path.join(t.ctx.dataDir, 'exports')).filter((f) => f.includes(BOOM))).toEqual([]);
    const item = (await t.call('GET', `/api/v1/system/async_operations?type=${BOOM}`, { token: superToken })).body.items[0];
    expect(item).toMatchObject({ id: row.id, status: 3, download_url: null, error_message: row.errorMessage });
    expect((await t.call('GET', `/api/v1/system/async_operations/${row.id}/download`, { token: superToken })).status).toBe(409);
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.adminId, ids.rootId));
    expect(notes.some((n) => n.content.includes(`(${BOOM}) failed: The database refused`))).toBe(true);
    // The same list without the failing filter works: the runner carried on.
    const ok = await exportAndWait(superToken, { type: BOOM, format: 1, params: {} });
    expect(ok.row.status).toBe(2);
  });

  it('refuses an export without <page>:export, an unknown list and invalid filters', async () => {
    const jobsOf = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(asyncOperations).where(eq(asyncOperations.adminId, ids.noExport)))[0].n;
    // Another case queues a job for this admin directly (as if asked before the permission went).
    const before = await jobsOf();
    const no = await t.call('POST', '/api/v1/exports', { token: tokNoExport, body: { type: 'bill', format: 1, params: {} } });
    expect(no.status).toBe(403);
    expect(no.body.code).toBe('FORBIDDEN');
    expect(no.body.details).toEqual({ permission: 'bill:export' });
    expect((await t.call('POST', '/api/v1/exports', { body: { type: 'bill', format: 1, params: {} } })).status).toBe(401);
    // exp_a may export bills but not credit bills.
    expect((await t.call('POST', '/api/v1/exports', { token: tokA, body: { type: 'bill_credit', format: 1, params: {} } })).status).toBe(403);
    const unknown = await t.call('POST', '/api/v1/exports', { token: superToken, body: { type: 'no_such_list', format: 1, params: {} } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].field).toBe('type');
    const badFormat = await t.call('POST', '/api/v1/exports', { token: superToken, body: { type: 'bill', format: 3, params: {} } });
    expect(badFormat.status).toBe(400);
    const badFilter = await t.call('POST', '/api/v1/exports', { token: superToken, body: { type: 'bill', format: 1, params: { created_at_from: 'yesterday' } } });
    expect(badFilter.status).toBe(400);
    expect(badFilter.body.details[0].field).toBe('created_at_from');
    // The list's own requirement (spec §5 message) applies to exports too.
    const cs = await t.call('POST', '/api/v1/exports', { token: superToken, body: { type: 'cs_bill', format: 1, params: {} } });
    expect(cs.status).toBe(400);
    expect(cs.body.code).toBe('CS_PHONE_REQUIRED');
    expect(await jobsOf()).toBe(before);
  });

  it('re-reads the asker\'s permission when the job runs', async () => {
    // Queued for an admin who cannot export bills (as if the permission was removed after asking).
    const op = await queueExport({ adminId: ids.noExport, type: 'bill', format: 1, params: {} });
    const row = await waitDone(op.id);
    expect(row.status).toBe(3);
    expect(row.errorMessage).toBe('The administrator who asked no longer holds the permission to export this list.');
  });

  it('enqueues the run job in the request\'s transaction: the request answers with the job queued', async () => {
    const res = await t.call('POST', '/api/v1/exports', { token: tokA, body: { type: SLOW, format: 1, params: {} } });
    expect(res.status).toBe(202);
    // The SLOW query sleeps: the job is still queued or running when the answer comes.
    expect(await runJobsOf(res.body.id)).toBe(1);
    await t.ctx.jobs.drain([EXPORT_RUN_JOB]);
    const [row] = await t.database.db.select().from(asyncOperations).where(eq(asyncOperations.id, res.body.id));
    expect(row).toMatchObject({ status: 2, attempts: 1, rowCount: serials.a.length + serials.a1.length });
  });

  it('puts an export cut short by a stop back in the queue, without counting the attempt, and runs it after', async () => {
    const runner = exportJobsOf(t.ctx)!;
    const before = slowQueries;
    const op = await queueExport({ adminId: ids.expA, type: SLOW, format: 2, params: {} });
    try {
      // Stop while the export's query runs (it sleeps 150 ms).
      await vi.waitFor(() => expect(slowQueries).toBeGreaterThan(before), { timeout: 150_000, interval: 5 });
      await runner.stop();
      const [row] = await t.database.db.select().from(asyncOperations).where(eq(asyncOperations.id, op.id));
      expect(row).toMatchObject({ status: 1, filePath: null, rowCount: 0, errorMessage: null, attempts: 0 });
      // The job that was cut short, and the one that puts it back.
      expect(await runJobsOf(op.id, 'all')).toBe(2);
      expect(fs.readdirSync(runner.dir).filter((f) => f.startsWith(`${op.id}-`))).toEqual([]);
    } finally {
      runner.start();
    }
    const done = await waitDone(op.id);
    expect(done).toMatchObject({ status: 2, attempts: 1, rowCount: serials.a.length + serials.a1.length });
    expect(await runJobsOf(op.id, 'all')).toBe(2);
  });

  it('a run that lost its claim (revived elsewhere while it stalled) records nothing and keeps off the new run\'s file', async () => {
    const runner = exportJobsOf(t.ctx)!;
    const before = slowQueries;
    const op = await queueExport({ adminId: ids.expA, type: SLOW, format: 1, params: {} });
    await vi.waitFor(() => expect(slowQueries).toBeGreaterThan(before), { timeout: 150_000, interval: 5 });
    // While the first run's query sleeps, another process takes the export over (its second run).
    const takenOver = `${op.id}-2-${SLOW}.csv`;
    fs.writeFileSync(runner.pathOf(takenOver), 'the second run writes here');
    await t.database.db.update(asyncOperations).set({ attempts: 2, filePath: takenOver }).where(eq(asyncOperations.id, op.id));
    await t.ctx.jobs.drain([EXPORT_RUN_JOB]);
    const [row] = await t.database.db.select().from(asyncOperations).where(eq(asyncOperations.id, op.id));
    expect(row).toMatchObject({ status: 1, attempts: 2, filePath: takenOver, errorMessage: null });
    expect(fs.readFileSync(runner.pathOf(takenOver), 'utf8')).toBe('the second run writes here');
    expect(fs.readdirSync(runner.dir).filter((f) => f.startsWith(`${op.id}-1-`))).toEqual([]);
    await t.call('DELETE', `/api/v1/system/async_operations/${op.id}`, { token: tokA });
  });

  /** An export left running by a process that died: claimed `attempts` times, its heartbeat an hour old, a partial file. */
  async function abandoned(attempts: number) {
    const [op] = await t.database.db.insert(asyncOperations).values({ adminId: ids.expA, type: 'bill', format: 1, params: {} }).returning();
    const filePath = `${op.id}-${attempts}-bill.csv`;
    await t.database.db
      .update(asyncOperations)
      .set({ filePath, attempts, rowCount: 2000, updatedAt: new Date(Date.now() - 3_600_000) })
      .where(eq(asyncOperations.id, op.id));
    const part = path.join(exportJobsOf(t.ctx)!.dir, `${filePath}.part`);
    fs.mkdirSync(path.dirname(part), { recursive: true });
    fs.writeFileSync(part, 'partial');
    return { id: op.id, part };
  }

  it('queues an export cut by a dead process again and runs it to the end', async () => {
    const runner = exportJobsOf(t.ctx)!;
    const { id, part } = await abandoned(1);
    // A heartbeat that still beats is left alone.
    const alive = await abandoned(1);
    await t.database.db.update(asyncOperations).set({ updatedAt: new Date() }).where(eq(asyncOperations.id, alive.id));
    await runner.revive();
    expect(fs.existsSync(part)).toBe(false);
    const done = await waitDone(id);
    expect(done).toMatchObject({ status: 2, attempts: 2, errorMessage: null, rowCount: serials.a.length + serials.a1.length });
    expect(done.filePath).toBe(`${id}-2-bill.csv`);
    expect(csvLines(fs.readFileSync(runner.pathOf(done.filePath!)).subarray(3))).toHaveLength(1 + done.rowCount);
    const [still] = await t.database.db.select().from(asyncOperations).where(eq(asyncOperations.id, alive.id));
    expect(still).toMatchObject({ status: 1, attempts: 1, filePath: `${alive.id}-1-bill.csv` });
    expect(fs.existsSync(alive.part)).toBe(true);
    await t.call('DELETE', `/api/v1/system/async_operations/${alive.id}`, { token: tokA });
    expect(fs.existsSync(alive.part)).toBe(false);
  });

  it('gives an export up as abnormal after three interrupted runs, and tells the asker', async () => {
    const { id, part } = await abandoned(3);
    await exportJobsOf(t.ctx)!.revive();
    const [row] = await t.database.db.select().from(asyncOperations).where(eq(asyncOperations.id, id));
    expect(row).toMatchObject({ status: 3, errorMessage: INTERRUPTED, filePath: null, attempts: 3 });
    expect(fs.existsSync(part)).toBe(false);
    expect(await runJobsOf(id)).toBe(0);
    const notes = await t.database.db.select().from(notifications).where(eq(notifications.adminId, ids.expA));
    expect(notes.some((n) => n.content === `Your export #${id} (bill) failed: ${INTERRUPTED}`)).toBe(true);
  });

  it('gives a queued export that has no run job (queued before the job queue) one', async () => {
    const [op] = await t.database.db
      .insert(asyncOperations)
      .values({ adminId: ids.expA, type: 'bill', format: 1, params: {}, updatedAt: new Date(Date.now() - 3_600_000) })
      .returning();
    expect(await runJobsOf(op.id)).toBe(0);
    await exportJobsOf(t.ctx)!.revive();
    const done = await waitDone(op.id);
    expect(done).toMatchObject({ status: 2, attempts: 1 });
  });

  it('runExport (for benchmarks) returns rows and time, and leaves nothing behind when cancelled', async () => {
    const spec = listSpecs().get('bill')!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-exp-'));
    const file = path.join(dir, 'b.csv');
    const r = await runExport(t.database.db, spec, {}, { all: true }, 1, file, { batch: 2 });
    expect(r.rows).toBe(serials.a.length + serials.a1.length + serials.b.length);
    expect(r.ms).toBeGreaterThan(0);
    expect(csvLines(fs.readFileSync(file).subarray(3))).toHaveLength(1 + r.rows);
    const scoped = await runExport(t.database.db, spec, {}, { all: false, agentIds: [ids.expB] }, 2, path.join(dir, 'b.xlsx'));
    expect(scoped.rows).toBe(serials.b.length);
    await expect(
      runExport(t.database.db, spec, {}, { all: true }, 2, path.join(dir, 'c.xlsx'), { batch: 1, progressEveryMs: 0, onProgress: () => false }),
    ).rejects.toBeInstanceOf(ExportCancelled);
    expect(fs.readdirSync(dir).sort()).toEqual(['b.csv', 'b.xlsx']);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // Several server processes on one PostgreSQL share the queue: each export is run by exactly one of them.
  it.skipIf(!process.env.TEST_DATABASE_URL)('runs each queued export once when several servers share the queue (PostgreSQL)', async () => {
    const others = await Promise.all(
      [0, 1].map(async () => {
        const database = await openPostgres(t.database.url!, { max: 5 });
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-exp-'));
        const built = await buildApp({ database, dataDir });
        await built.app.ready();
        return { database, dataDir, built };
      }),
    );
    const dirs = [path.join(t.ctx.dataDir, 'exports'), ...others.map((o) => path.join(o.dataDir, 'exports'))];
    const [{ last }] = await t.database.db.select({ last: sql<number>`coalesce(max(${notifications.id}), 0)::int` }).from(notifications);
    const queriesBefore = slowQueries;
    try {
      const queued = await Promise.all(Array.from({ length: 12 }, (_, i) => queueExport({ adminId: ids.expA, type: SLOW, format: 1 + (i % 2), params: {} })));
      const done = await Promise.all(queued.map((q) => waitDone(q.id)));
      expect(done.map((r) => r.status)).toEqual(queued.map(() => 2));
      expect(done.map((r) => r.attempts)).toEqual(queued.map(() => 1));
      for (const { id, filePath } of done) {
        const copies = dirs.filter((d) => fs.existsSync(path.join(d, filePath!)));
        expect(copies, `job ${id}`).toHaveLength(1);
      }
      const notes = await t.database.db.select().from(notifications).where(and(eq(notifications.adminId, ids.expA), gt(notifications.id, last)));
      const readyNotes = notes.filter((n) => n.content.includes(`(${SLOW}) is ready: ${serials.a.length + serials.a1.length} rows`));
      expect(readyNotes).toHaveLength(queued.length);
      expect(slowQueries - queriesBefore, 'an export ran more than once').toBe(queued.length);
    } finally {
      for (const o of others) {
        await o.built.app.close();
        await o.database.close();
        fs.rmSync(o.dataDir, { recursive: true, force: true });
      }
    }
  });

  it('starts a new sheet past the row limit of a sheet', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-exp-'));
    const file = path.join(dir, 'x.xlsx');
    const fh = await fs.promises.open(file, 'w');
    const w = new XlsxWriter(fh, [{ key: 'n' }, { key: 'amount', money: true }], 'en-US', 'a:b/c', { maxRows: 3 });
    await w.start();
    await w.write(Array.from({ length: 7 }, (_, i) => ({ n: i + 1, amount: (i + 1) * 100 })));
    await w.finish();
    await fh.close();
    const files = unzip(fs.readFileSync(file));
    expect([...files.keys()].filter((k) => k.startsWith('xl/worksheets/'))).toHaveLength(4);
    expect(files.get('xl/workbook.xml')!.toString()).toContain('<sheet name="a_b_c 4" sheetId="4" r:id="rId4"/>');
    expect(files.get('xl/worksheets/sheet4.xml')!.toString()).toContain('<row r="2"><c><v>7</v></c><c s="2"><v>7.00</v></c></row>');
    const total = [1, 2, 3, 4].reduce((n, i) => n + files.get(`xl/worksheets/sheet${i}.xml`)!.toString().split('<row ').length - 2, 0);
    expect(total).toBe(7);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
