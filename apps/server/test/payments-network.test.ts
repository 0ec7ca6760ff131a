import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { MOBILE_MONEY_PAY_TYPES, PAY_TYPE, TZ_NETWORK_PREFIXES, exampleNumber, networkOf } from '@dau/domain';
import { withdrawals } from '../src/schema.js';
import { systemLogs } from '../src/platform/schema.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import { ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { grantKeys } from './payments-fixtures.js';

/**
 * Issue 28, "the number decides the network": the prefix table, the check a withdrawal naming a pay type
 * goes through before its money is held, the admin's ported override (both ways) and its scope, and the
 * network in the bettor's detail.
 */

describe('the prefix table (domain msisdn.ts)', () => {
  it.each(TZ_NETWORK_PREFIXES.map((r) => [r.prefix, r] as const))('255 %s… resolves to its row', (prefix, row) => {
    expect(prefix).toMatch(/^[67][0-9]$/);
    expect(row.source.length, 'every row says where it comes from').toBeGreaterThan(10);
    expect(row.payType === null || MOBILE_MONEY_PAY_TYPES.includes(row.payType)).toBe(true);
    for (const tail of ['0000000', '4567890', '9999999']) expect(networkOf(`255${prefix}${tail}`)).toBe(row);
  });

  it('has one row per prefix, ascending', () => {
    const prefixes = TZ_NETWORK_PREFIXES.map((r) => r.prefix);
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect([...prefixes].sort()).toEqual(prefixes);
  });

  it('knows the well-established blocks of each operator', () => {
    const of = (p: string) => networkOf(`255${p}1234567`)?.payType;
    expect(['74', '75', '76'].map(of)).toEqual([PAY_TYPE.vodacom, PAY_TYPE.vodacom, PAY_TYPE.vodacom]);
    expect(['68', '69', '78'].map(of)).toEqual([PAY_TYPE.airtel, PAY_TYPE.airtel, PAY_TYPE.airtel]);
    expect(['65', '67', '71'].map(of)).toEqual([PAY_TYPE.tigo, PAY_TYPE.tigo, PAY_TYPE.tigo]);
    expect(['61', '62'].map(of)).toEqual([PAY_TYPE.halotel, PAY_TYPE.halotel]);
    expect(of('73'), 'TTCL: a network we do not pay to').toBeNull();
  });

  it('answers nothing for a prefix in no row or a number that is not a normalised Tanzanian mobile', () => {
    expect(networkOf('255641234567')).toBeUndefined();
    for (const bad of ['0754123456', '+255754123456', '25575412345', '2557541234567', '254712345678', '255254123456', '']) {
      expect(networkOf(bad), bad).toBeUndefined();
    }
  });

  it('builds example numbers of each pay type\'s network (for fixtures)', () => {
    for (const payType of [...MOBILE_MONEY_PAY_TYPES, null]) {
      for (const n of [0, 42, 9_999_999]) {
        const phone = exampleNumber(payType, n);
        expect(phone).toMatch(/^255[67]\d{8}$/);
        expect(networkOf(phone)?.payType, `${phone}`).toBe(payType);
      }
    }
    expect(exampleNumber(PAY_TYPE.airtel, 42)).toBe('255680000042');
    expect(() => exampleNumber(PAY_TYPE.vodacom, 10_000_000)).toThrow(RangeError);
    expect(() => exampleNumber(PAY_TYPE.usdt, 1)).toThrow();
  });
});

describe('withdrawals and the network of the number', () => {
  let t: TestApp;
  let w: Awaited<ReturnType<typeof makeWorld>>;
  let root: string;
  let agentA: string;
  let agentB: string;
  let limited: string;
  let serial = 1000;
  const db = () => t.database.db;
  /** A bettor of a branch with money, on a number of the given network (a fresh number each time). */
  const bettorOn = (agentId: number, phone: string) => makeBettor(t, agentId, { phone, cash: 100_000_00 });
  const numberOf = (payType: number | null) => exampleNumber(payType, (serial += 1) * 97 + Math.floor(Math.random() * 90));
  const withdraw = (bettorId: number, payType: number) =>
    t.call('POST', '/api/v1/sandbox/withdrawals', { token: root, body: { bettor_id: bettorId, pay_type: payType, amount: 2_000_00 } });
  const held = async (bettorId: number) => db().select().from(withdrawals).where(eq(withdrawals.bettorId, bettorId));
  const cash = async (bettorId: number) => (await t.call('GET', `/api/v1/money/bettors/${bettorId}`, { token: root })).body.balance as number;

  beforeAll(async () => {
    t = await createTestApp({ sandboxRoutes: true });
    w = await makeWorld(t);
    // The agents of the world manage the bettors of their branch, ported mark included.
    await grantKeys(t, w.agentRole, ['user', 'user:ported']);
    root = await t.login('admin', ADMIN_PASSWORD);
    agentA = await t.login('agent_a');
    agentB = await t.login('agent_b');
    limited = await t.login('limited');
  });
  afterAll(async () => {
    if (t) expect(await checkInvariants(db())).toEqual([]);
    await t?.close();
  });

  it('refuses an Airtel number through M-Pesa with the network named, and holds no money', async () => {
    const b = await bettorOn(w.agentA, numberOf(PAY_TYPE.airtel));
    const r = await withdraw(b.id, PAY_TYPE.vodacom);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('PAY_TYPE_NOT_NETWORK');
    expect(r.body.message).toContain('Airtel Tanzania');
    expect(r.body.message).toContain('Vodacom M-Pesa');
    expect(await held(b.id)).toEqual([]);
    expect(await cash(b.id)).toBe(100_000_00);
    // Its own network's pay type passes, and holds the amount.
    const ok = await withdraw(b.id, PAY_TYPE.airtel);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(await cash(b.id)).toBe(98_000_00);
  });

  it('speaks the console\'s language', async () => {
    const b = await bettorOn(w.agentA, numberOf(PAY_TYPE.tigo));
    const sw = await t.call('POST', '/api/v1/sandbox/withdrawals', {
      token: root, headers: { 'accept-language': 'sw-KE' }, body: { bettor_id: b.id, pay_type: PAY_TYPE.halotel, amount: 2_000_00 },
    });
    expect(sw.status).toBe(422);
    expect(sw.body.message).toContain('mtandao');
    expect(sw.body.message).toContain('HaloPesa');
  });

  it('refuses a network we do not pay to (TTCL) through any pay type', async () => {
    const b = await bettorOn(w.agentA, numberOf(null));
    for (const payType of MOBILE_MONEY_PAY_TYPES) {
      const r = await withdraw(b.id, payType);
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('PAY_TYPE_NOT_NETWORK');
      expect(r.body.message).toContain('TTCL');
    }
    expect(await held(b.id)).toEqual([]);
  });

  it('marked ported → allowed through the new network (and no longer through the old); unmarked → refused again', async () => {
    const b = await bettorOn(w.agentA, numberOf(PAY_TYPE.airtel));
    expect((await withdraw(b.id, PAY_TYPE.vodacom)).status).toBe(422);

    const mark = await t.call('POST', `/api/v1/money/bettors/${b.id}/ported`, { token: agentA, body: { pay_type: PAY_TYPE.vodacom, remark: 'Ported to Vodacom in March, customer showed the SMS' } });
    expect(mark.status, JSON.stringify(mark.body)).toBe(200);
    expect(mark.body).toMatchObject({ phone: b.phone, pay_type: PAY_TYPE.vodacom, network: { pay_type: PAY_TYPE.airtel }, ported: { pay_type: PAY_TYPE.vodacom, marked_by: w.agentA, marked_by_account: 'agent_a' } });
    const [log] = await db().select().from(systemLogs).where(and(like(systemLogs.content, `%${b.phone}%`), like(systemLogs.content, '%ported%')));
    expect(log, 'the mark is audited').toBeTruthy();

    const ok = await withdraw(b.id, PAY_TYPE.vodacom);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const old = await withdraw(b.id, PAY_TYPE.airtel);
    expect(old.status).toBe(422);
    expect(old.body.message).toContain('(ported)');

    const unmark = await t.call('DELETE', `/api/v1/money/bettors/${b.id}/ported`, { token: agentA });
    expect(unmark.status).toBe(200);
    expect(unmark.body).toMatchObject({ ported: null, pay_type: PAY_TYPE.airtel });
    const logs = await db().select().from(systemLogs).where(like(systemLogs.content, `Removed the ported mark of the number ${b.phone}%`));
    expect(logs).toHaveLength(1);
    expect((await withdraw(b.id, PAY_TYPE.vodacom)).status).toBe(422);
    expect((await held(b.id)).map((x) => x.payType)).toEqual([PAY_TYPE.vodacom]);
  });

  it('refuses a number whose prefix is in no row, unless it is marked ported', async () => {
    const b = await bettorOn(w.agentA, `25564${String(serial++).padStart(7, '0')}`);
    const r = await withdraw(b.id, PAY_TYPE.halotel);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('PAY_TYPE_UNKNOWN_NETWORK');
    expect(r.body.message).toContain('64');
    expect(await held(b.id)).toEqual([]);
    const detail = await t.call('GET', `/api/v1/money/bettors/${b.id}`, { token: root });
    expect(detail.body.network).toMatchObject({ network: null, ported: null, pay_type: null });

    expect((await t.call('POST', `/api/v1/money/bettors/${b.id}/ported`, { token: root, body: { pay_type: PAY_TYPE.halotel, remark: 'new Halotel block' } })).status).toBe(200);
    expect((await withdraw(b.id, PAY_TYPE.halotel)).status).toBe(201);
  });

  it('marks only to a mobile-money pay type, with a remark', async () => {
    const b = await bettorOn(w.agentA, numberOf(PAY_TYPE.tigo));
    const usdt = await t.call('POST', `/api/v1/money/bettors/${b.id}/ported`, { token: root, body: { pay_type: PAY_TYPE.usdt, remark: 'x' } });
    expect(usdt.status).toBe(400);
    expect(usdt.body.code).toBe('PARAM_INVALID');
    expect((await t.call('POST', `/api/v1/money/bettors/${b.id}/ported`, { token: root, body: { pay_type: PAY_TYPE.airtel, remark: '  ' } })).status).toBe(400);
  });

  it('an agent of another branch cannot mark or unmark a bettor outside their scope; a role without the button cannot either', async () => {
    const b = await bettorOn(w.agentA, numberOf(PAY_TYPE.airtel));
    const body = { pay_type: PAY_TYPE.vodacom, remark: 'not mine' };
    const other = await t.call('POST', `/api/v1/money/bettors/${b.id}/ported`, { token: agentB, body });
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('OUT_OF_SCOPE');
    expect((await t.call('DELETE', `/api/v1/money/bettors/${b.id}/ported`, { token: agentB })).status).toBe(403);
    expect((await t.call('GET', `/api/v1/money/bettors/${b.id}`, { token: agentB })).status).toBe(403);
    const none = await t.call('POST', `/api/v1/money/bettors/${b.id}/ported`, { token: limited, body });
    expect(none.status).toBe(403);
    expect(none.body.code).toBe('FORBIDDEN');
    expect((await t.call('POST', '/api/v1/money/bettors/2147483000/ported', { token: root, body })).status).toBe(404);
    // Nothing was recorded: the number still goes by its prefix.
    expect((await withdraw(b.id, PAY_TYPE.vodacom)).status).toBe(422);
  });

  it('the bettor\'s detail shows the network of the phone, its source, and the ported override', async () => {
    const b = await bettorOn(w.agentA, numberOf(PAY_TYPE.vodacom));
    const d = await t.call('GET', `/api/v1/money/bettors/${b.id}`, { token: agentA });
    expect(d.status).toBe(200);
    expect(d.body.phone).toBe(b.phone);
    expect(d.body.network).toMatchObject({ phone: b.phone, pay_type: PAY_TYPE.vodacom, ported: null, network: { prefix: b.phone.slice(3, 5), name: 'Vodacom Tanzania', pay_type: PAY_TYPE.vodacom, uncertain: false } });
    expect(d.body.network.network.source).toContain('Wikipedia');

    await t.call('POST', `/api/v1/money/bettors/${b.id}/ported`, { token: root, body: { pay_type: PAY_TYPE.halotel, remark: 'moved to Halotel' } });
    const after = await t.call('GET', `/api/v1/money/bettors/${b.id}`, { token: agentA });
    expect(after.body.network).toMatchObject({ pay_type: PAY_TYPE.halotel, ported: { pay_type: PAY_TYPE.halotel, remark: 'moved to Halotel', marked_by_account: 'admin' } });
    // The lists do not carry it (one lookup per row would be a query per row).
    const list = await t.call('GET', `/api/v1/money/bettors?id=${b.id}`, { token: agentA });
    expect(list.body.items[0].network).toBeUndefined();
  });
});
