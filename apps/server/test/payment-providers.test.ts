import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PAY_STATUS, PAY_TYPE } from '@dau/domain';
import { paymentProviders, sandboxProviderAccounts } from '../src/modules/payments/schema.js';
import { recharges } from '../src/schema.js';
import { startRecharge } from '../src/modules/payments/recharges.js';
import { approved, ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { PAYMENT_KEYS, grantKeys, makePayer, manualClock } from './payments-fixtures.js';

/**
 * The mobile-money providers' accounts and routing (issue 28): credentials never leave the server, every
 * change waits for a second admin, a branch admin is refused, and what is approved is what the clients use
 * (the base URL, the routing of a pay type).
 */
let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  await grantKeys(t, w.agentRole, [...PAYMENT_KEYS, 'payment_providers', 'payment_providers:edit']);
  root = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(() => t?.close());

describe('mobile-money providers', () => {
  it('lists each provider with where its API is and which credentials are stored, never their values', async () => {
    const res = await t.call('GET', '/api/v1/payments/providers', { token: root });
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.providers.map((p: { provider: string }) => [p.provider, p]));
    expect(Object.keys(byId).sort()).toEqual(['aggregator', 'airtel', 'mpesa']);
    expect(byId.mpesa).toMatchObject({ base_url: null, pay_types: [6], carries: [6], production_base_url: expect.stringContaining('openapi.m-pesa.com') });
    expect(byId.aggregator.carries).toEqual([3, 7]);
    expect(byId.mpesa.secrets_set).toEqual(expect.arrayContaining(['apiKey', 'publicKey']));
    expect(byId.airtel.callback_urls['4']).toMatch(/\/api\/v1\/payments\/callback\/4$/);
    // M-Pesa's OpenAPI answers within the call: no callback URL to register.
    expect(byId.mpesa.callback_urls).toEqual({});
    // No stored secret value appears anywhere in the answer.
    const stored = await db().select().from(paymentProviders);
    const text = JSON.stringify(res.body);
    for (const row of stored) for (const v of Object.values(row.secrets)) if (v.length > 3) expect(text).not.toContain(v);
  });

  it('a change of an account waits for a second admin; approved, the client calls the new base URL', async () => {
    const before = await t.call('GET', '/api/v1/payments/providers/airtel', { token: root });
    const asked = await t.call('PUT', '/api/v1/payments/providers/airtel', { token: root, body: { base_url: 'http://127.0.0.1:9/airtel', secrets: { client_secret: 'rotated-secret-1' } } });
    expect(asked.status).toBe(202);
    expect((await t.call('GET', '/api/v1/payments/providers/airtel', { token: root })).body.base_url).toBeNull();
    const done = await approved(t, 'PUT', '/api/v1/payments/providers/airtel', { token: root, body: { base_url: 'http://127.0.0.1:9/airtel', secrets: { client_secret: 'rotated-secret-1' } } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ base_url: 'http://127.0.0.1:9/airtel' });
    expect(JSON.stringify(done.body)).not.toContain('rotated-secret-1');
    const [row] = await db().select().from(paymentProviders).where(eq(paymentProviders.provider, 'airtel'));
    expect(row!.secrets.client_secret).toBe('rotated-secret-1');
    // The history and the audit never carry the value.
    const history = await t.call('GET', '/api/v1/system/setting_history?setting=payment_providers', { token: root });
    expect(JSON.stringify(history.body)).not.toContain('rotated-secret-1');

    // The client now calls that address (nothing listens there): the recharge stays processing for the
    // re-query, nothing credited and nothing lost.
    const { clock } = manualClock(t);
    const b = await makePayer(t, w.agentA, 0, PAY_TYPE.airtel);
    const r = await startRecharge(db(), { bettorId: b.id, payType: PAY_TYPE.airtel, amount: 1_000_00 });
    expect(r.payStatus).toBe(PAY_STATUS.processing);
    expect(r.carrierOrderNumber).toBeNull();
    await clock.runAll();

    // Back to the sandbox (empty base URL), credentials restored, through the same two people.
    const [sandboxSide] = await db().select().from(sandboxProviderAccounts).where(eq(sandboxProviderAccounts.provider, 'airtel'));
    const back = await approved(t, 'PUT', '/api/v1/payments/providers/airtel', { token: root, body: { base_url: '', secrets: { client_secret: sandboxSide!.credentials.client_secret! } } });
    expect(back.body).toMatchObject({ base_url: null, secrets_set: before.body.secrets_set });
  });

  it('routes a pay type through the aggregator once approved; refuses a provider that cannot carry it', async () => {
    const refused = await approved(t, 'PUT', '/api/v1/payments/routing', { token: root, body: { provider_of: { '3': 'mpesa' } } });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe('PROVIDER_CANNOT_CARRY');
    const asked = await t.call('PUT', '/api/v1/payments/routing', { token: root, body: { provider_of: { '4': 'aggregator' } } });
    expect(asked.status).toBe(202);
    expect((await t.call('GET', '/api/v1/payments/routing', { token: root })).body.provider_of['4']).toBe('airtel');
    const done = await approved(t, 'PUT', '/api/v1/payments/routing', { token: root, body: { provider_of: { '4': 'aggregator' } } });
    expect(done.body.provider_of).toMatchObject({ '3': 'aggregator', '4': 'aggregator', '6': 'mpesa', '7': 'aggregator' });
    // An Airtel deposit now goes through the aggregator's API (its own order, its own callback format).
    const { clock, rt } = manualClock(t);
    rt.sandbox(PAY_TYPE.airtel).queue.push('success');
    const b = await makePayer(t, w.agentA, 0, PAY_TYPE.airtel);
    const r = await startRecharge(db(), { bettorId: b.id, payType: PAY_TYPE.airtel, amount: 2_000_00 });
    await clock.runAll();
    const txn = await rt.sandbox(PAY_TYPE.airtel).transaction(r.serialNumber);
    expect(txn?.extra?.face).toBe('aggregator');
    const [paid] = await db().select().from(recharges).where(eq(recharges.id, r.id));
    expect(paid!.payStatus).toBe(PAY_STATUS.paid);
    await approved(t, 'PUT', '/api/v1/payments/routing', { token: root, body: { provider_of: { '4': 'airtel' } } });
  });

  it('a branch admin can neither read the accounts without the page nor change them with it', async () => {
    const agent = await t.login('agent_a');
    const change = await t.call('PUT', '/api/v1/payments/providers/mpesa', { token: agent, body: { base_url: 'https://example.test' } });
    expect(change.status).toBe(403);
    expect(change.body.code).toBe('WHOLE_BOOK_ONLY');
    const routing = await t.call('PUT', '/api/v1/payments/routing', { token: agent, body: { provider_of: { '6': 'aggregator' } } });
    expect(routing.status).toBe(403);
    const bad = await t.call('PUT', '/api/v1/payments/providers/mpesa', { token: root, body: { base_url: 'ftp://x', secrets: { apiKey: 'a\u0000b' } } });
    expect(bad.status).toBe(400);
  });
});
