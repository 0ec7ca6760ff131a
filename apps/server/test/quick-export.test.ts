/**
 * The quick CSV downloads (`GET …/export` of the resource layer and of the administrators) read like the
 * background exports: headers are the column labels the console sends in the operator's language, every
 * instant is wall time in the operator's zone (`admins.time_zone`) with its offset, enums are labels.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { enumLabel } from '@dau/domain';
import { admins, ipBlacklist } from '../src/platform/schema.js';
import { approved, ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let token: string;
const AT = new Date('2026-11-25T07:51:00.123Z');

beforeAll(async () => {
  t = await createTestApp();
  token = await t.login('admin', ADMIN_PASSWORD);
  const made = await approved(t, 'POST', '/api/v1/system/ip_black', { token, body: { ip: '203.0.113.9', remark: 'quick export' } });
  expect(made.status).toBe(201);
  await t.database.db.update(ipBlacklist).set({ createdAt: AT }).where(eq(ipBlacklist.id, made.body.id));
  await t.database.db.update(admins).set({ registerTime: AT }).where(eq(admins.account, 'admin'));
});
afterAll(async () => {
  await t?.close();
});

const setZone = async (zone: string) => expect((await t.call('PUT', '/api/v1/auth/preferences', { token, body: { time_zone: zone } })).status).toBe(200);

/** The CSV as rows of cells (BOM dropped; the cells of these tests hold no comma or quote). */
async function download(path: string, locale: string, labels?: unknown) {
  const query = labels === undefined ? '' : `?labels=${encodeURIComponent(typeof labels === 'string' ? labels : JSON.stringify(labels))}`;
  const res = await t.call('GET', `${path}${query}`, { token, headers: { 'x-locale': locale } });
  expect(res.status, res.res.body).toBe(200);
  expect(res.res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  const rows = res.res.rawPayload.subarray(3).toString('utf8').split('\n').filter(Boolean).map((l) => l.split(','));
  return { header: rows[0]!, rows: rows.slice(1) };
}

const cellOf = (csv: { header: string[]; rows: string[][] }, row: string[], label: string) => row[csv.header.indexOf(label)];

describe('quick CSV download of a resource (IP blacklist)', () => {
  const labels = { id: 'Nambari', ip: 'Anwani ya IP', remark: 'Maelezo', created_at: 'Wakati wa kuundwa', updated_at: 'Wakati wa kusasishwa', not_a_column: 'x' };

  it('heads the columns with the labels and writes instants in the operator zone with the offset', async () => {
    await setZone('Africa/Dar_es_Salaam');
    const csv = await download('/api/v1/system/ip_black/export', 'sw-KE', labels);
    expect(csv.header).toEqual(['Nambari', 'Anwani ya IP', 'Maelezo', 'Wakati wa kuundwa', 'Wakati wa kusasishwa']);
    const row = csv.rows.find((r) => r.includes('203.0.113.9'))!;
    expect(cellOf(csv, row, 'Wakati wa kuundwa')).toBe('2026-11-25 10:51:00 +03:00');
    // No instant is written as UTC `…Z`.
    expect(csv.rows.flat().some((c) => /\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(c))).toBe(false);

    await setZone('Asia/Shanghai');
    const there = await download('/api/v1/system/ip_black/export', 'sw-KE', labels);
    expect(cellOf(there, there.rows.find((r) => r.includes('203.0.113.9'))!, 'Wakati wa kuundwa')).toBe('2026-11-25 15:51:00 +08:00');
  });

  it('keeps the keys as headers without labels', async () => {
    const csv = await download('/api/v1/system/ip_black/export', 'en-US');
    expect(csv.header).toEqual(['id', 'ip', 'remark', 'created_at', 'updated_at']);
  });
});

describe('quick CSV download of the administrators', () => {
  const labels = {
    id: '编号', account: '账号', name: '姓名', phone: '手机号', role_name: '角色', superior_account: '上级', share_ratio: '占成比例',
    online_status: '在线状态', member_expiry: '会员到期', register_time: '注册时间', login_ip: '登录IP', login_time: '登录时间', disabled: '状态', google_bound: '谷歌验证',
  };

  it('heads the columns with the labels, writes enums as labels and instants in the operator zone', async () => {
    await setZone('Africa/Dar_es_Salaam');
    const csv = await download('/api/v1/system/administrators/export', 'zh-CN', { ...labels, password_hash: '密码' });
    expect(csv.header).toEqual(Object.values(labels));
    const row = csv.rows.find((r) => cellOf(csv, r, '账号') === 'admin')!;
    expect(cellOf(csv, row, '注册时间')).toBe('2026-11-25 10:51:00 +03:00');
    const [me] = await t.database.db.select().from(admins).where(eq(admins.account, 'admin'));
    expect(cellOf(csv, row, '在线状态')).toBe(enumLabel('online_status', me!.onlineStatus as never, 'zh-CN'));
    expect(cellOf(csv, row, '在线状态')).not.toMatch(/^\d+$/);

    await setZone('Asia/Shanghai');
    const there = await download('/api/v1/system/administrators/export', 'zh-CN', labels);
    expect(cellOf(there, there.rows.find((r) => cellOf(there, r, '账号') === 'admin')!, '注册时间')).toBe('2026-11-25 15:51:00 +08:00');
  });
});

describe('bad labels', () => {
  const bad = [
    'not json',
    '["id"]',
    '"id"',
    JSON.stringify({ id: 7 }),
    JSON.stringify({ id: '' }),
    JSON.stringify({ id: 'a\u0000b' }),
    JSON.stringify({ id: 'x'.repeat(101) }),
    JSON.stringify({ 'Bad Key': 'x' }),
    JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`k${i}`, 'label']))),
  ];
  for (const path of ['/api/v1/system/ip_black/export', '/api/v1/system/administrators/export']) {
    it(`are refused with 400 PARAM_INVALID (${path})`, async () => {
      for (const labels of bad) {
        const res = await t.call('GET', `${path}?labels=${encodeURIComponent(labels)}`, { token });
        expect(res.status, labels).toBe(400);
        expect(res.body.code, labels).toBe('PARAM_INVALID');
      }
    });
  }
});
