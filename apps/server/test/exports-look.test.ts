/**
 * Export files as the operator reads them: column headers in the asker's language (the labels the list
 * screen sends), every instant in the asker's time zone with its offset (never UTC `…Z`), and the time
 * zone as a per-admin preference (GET/PUT /api/v1/auth/preferences).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE } from '@dau/domain';
import { HOUSE, post, type Remark } from '../src/modules/money/ledger.js';
import { admins } from '../src/platform/schema.js';
import { formatInstant } from '../src/modules/exports/cells.js';
import { listSpecs } from '../src/platform/listing.js';
import { ADMIN_PASSWORD, createTestApp, exportFinished, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';

let t: TestApp;
let token: string;
let bettorId: number;

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  const b = await makeBettor(t, root.id);
  bettorId = b.id;
  await t.database.db.transaction((tx) =>
    post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: 1_000_00, type: BILL_TYPE.user_recharge, cause: { type: 'recharge', id: 'look-1' }, house: HOUSE.clearing(6) }),
  );
});
afterAll(async () => {
  await t?.close();
});
// Cases choose the admin's zone: each leaves the default for the next, in whatever order they run.
afterEach(async () => {
  expect((await t.call('PUT', '/api/v1/auth/preferences', { token, body: { time_zone: 'Africa/Dar_es_Salaam' } })).status).toBe(200);
});

async function exportCsv(body: Record<string, unknown>): Promise<{ lines: string[]; params: Record<string, unknown> }> {
  const res = await t.call('POST', '/api/v1/exports', { token, body });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const row = await exportFinished(t, res.body.id);
  expect(row.status, row.errorMessage ?? '').toBe(2);
  const dl = await t.call('GET', `/api/v1/system/async_operations/${row.id}/download`, { token });
  expect(dl.status).toBe(200);
  const text = dl.res.rawPayload.subarray(3).toString('utf8');
  return { lines: text.split('\n').filter(Boolean), params: row.params as Record<string, unknown> };
}

/** The cells of one CSV line (RFC 4180 quoting). */
function csvCells(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (cur += '"'), i++;
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') out.push(cur), (cur = '');
    else cur += c;
  }
  out.push(cur);
  return out;
}

describe('instants in exports', () => {
  it('are written as wall time in the zone with the offset', () => {
    const at = new Date('2026-11-25T07:51:00.123Z');
    expect(formatInstant(at)).toBe('2026-11-25 10:51:00 +03:00');
    expect(formatInstant(at, 'UTC')).toBe('2026-11-25 07:51:00 +00:00');
    expect(formatInstant(at, 'Asia/Kolkata')).toBe('2026-11-25 13:21:00 +05:30');
    expect(formatInstant(at, 'America/St_Johns')).toBe('2026-11-25 04:21:00 -03:30');
    // Across midnight: the local day, not the UTC one.
    expect(formatInstant(new Date('2026-11-25T22:30:00Z'))).toBe('2026-11-26 01:30:00 +03:00');
  });
});

describe('time zone preference', () => {
  it('defaults to Dar es Salaam, takes an IANA zone, refuses anything else with 400', async () => {
    expect((await t.call('GET', '/api/v1/auth/preferences', { token })).body).toEqual({ time_zone: 'Africa/Dar_es_Salaam' });
    const bad = await t.call('PUT', '/api/v1/auth/preferences', { token, body: { time_zone: 'Mars/Olympus_Mons' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'PARAM_INVALID', details: [{ field: 'time_zone' }] });
    expect((await t.call('PUT', '/api/v1/auth/preferences', { token, body: { time_zone: 'UTC', extra: 1 } })).status).toBe(400);
    expect((await t.call('PUT', '/api/v1/auth/preferences', { token, body: { time_zone: 'Asia/Kolkata' } })).body).toEqual({ time_zone: 'Asia/Kolkata' });
    expect((await t.call('GET', '/api/v1/auth/preferences', { token })).body).toEqual({ time_zone: 'Asia/Kolkata' });
    expect((await t.call('GET', '/api/v1/auth/preferences')).status).toBe(401);
  });
});

describe('export files', () => {
  it("head the columns with the asker's labels and write times in the asker's zone", async () => {
    expect((await t.call('PUT', '/api/v1/auth/preferences', { token, body: { time_zone: 'Africa/Dar_es_Salaam' } })).status).toBe(200);
    const columns = listSpecs().get('bill')!.columns.map((c) => c.key);
    const labels = Object.fromEntries(columns.map((k) => [k, `Lebo ${k}`]));
    // The bettor of this file's set-up: one bill (other cases add bettors and bills of their own).
    const { lines, params } = await exportCsv({ type: 'bill', format: 1, params: { bettor_id: bettorId }, locale: 'sw-KE', labels: { ...labels, not_a_column: 'x' } });
    expect(lines[0]).toBe(columns.map((k) => `Lebo ${k}`).join(','));
    expect(params).toMatchObject({ time_zone: 'Africa/Dar_es_Salaam' });
    expect((params.labels as Record<string, string>).not_a_column).toBeUndefined();
    expect(lines).toHaveLength(2);
    expect(lines[1]).not.toMatch(/\d{2}:\d{2}:\d{2}(\.\d+)?Z/);
    expect(lines[1]).toMatch(/,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+03:00(,|$)/);

    // Another admin's zone: the same row, another wall time and offset.
    expect((await t.call('PUT', '/api/v1/auth/preferences', { token, body: { time_zone: 'UTC' } })).status).toBe(200);
    const utc = await exportCsv({ type: 'bill', format: 1, params: { bettor_id: bettorId } });
    expect(utc.lines[0]).toBe(columns.join(','));
    expect(utc.lines[1]).toMatch(/ \+00:00(,|$)/);
  });

  it("write a bill's remark in the exporting admin's language; an older row's text as it is (issue 23)", async () => {
    const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
    const b = await makeBettor(t, root.id);
    const put = (amount: number, remark: Remark) =>
      t.database.db.transaction((tx) =>
        post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount, type: BILL_TYPE.user_recharge, cause: { type: 'recharge', id: `look-r-${amount}` }, house: HOUSE.clearing(6), remark }),
      );
    await put(1_00, { kind: 'recharge', params: { serial: 'R261204ABC' } });
    await put(2_00, 'Typed by hand');
    await put(3_00, { kind: 'withdrawal_refused', params: { serial: 'W261204XYZ' }, text: 'Wrong number' });
    const remarks = async (locale: string) => {
      const { lines } = await exportCsv({ type: 'bill', format: 1, params: { bettor_id: b.id }, locale });
      const at = listSpecs().get('bill')!.columns.findIndex((c) => c.key === 'remark');
      return lines.slice(1).map((l) => csvCells(l)[at]).sort();
    };
    const sorted = (xs: string[]) => [...xs].sort();
    expect(await remarks('en-US')).toEqual(sorted(['Recharge R261204ABC', 'Typed by hand', 'Withdrawal W261204XYZ refused, amount returned — Wrong number']));
    expect(await remarks('zh-CN')).toEqual(sorted(['充值 R261204ABC', 'Typed by hand', '提现 W261204XYZ 被拒绝，金额已退回：Wrong number']));
    expect(await remarks('sw-KE')).toEqual(sorted(['Kuweka pesa R261204ABC', 'Typed by hand', 'Utoaji W261204XYZ umekataliwa, kiasi kimerejeshwa — Wrong number']));
  });

  it('refuses labels that are not text', async () => {
    const res = await t.call('POST', '/api/v1/exports', { token, body: { type: 'bill', format: 1, params: {}, labels: { serial_number: 5 } } });
    expect(res.status).toBe(400);
  });
});
