/**
 * The sandbox order maker (DAU_SANDBOX_ROUTES=1) under parallel calls (issue 11, finding 6): each call
 * creates its own bettor, so ten at once must all answer 201 with ten distinct bettors and phones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bettors } from '../src/schema.js';
import { promotionEvents } from '../src/modules/promotions/schema.js';
import { ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { grantKeys } from './payments-fixtures.js';
import { makeBettor } from './money-helpers.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp({ sandboxRoutes: true });
  token = await t.login('admin', ADMIN_PASSWORD);
});
afterAll(() => t?.close());

describe('POST /api/v1/sandbox/betting/orders', () => {
  it('answers 201 to ten parallel calls, each with a bettor of its own', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.call('POST', '/api/v1/sandbox/betting/orders', { token, body: {} })));
    expect(answers.map((a) => [a.status, a.body?.code])).toEqual(Array.from({ length: 10 }, () => [201, undefined]));
    expect(new Set(answers.map((a) => a.body.bettor_id)).size).toBe(10);
    expect(new Set(answers.map((a) => a.body.phone)).size).toBe(10);
  });
});

describe('the sandbox bettor registers with an invitation code (issue 29)', () => {
  it("is the inviter's invitee, of the inviter's branch, and promotions records the invitation; a code out of scope or unknown is refused", async () => {
    const w = await makeWorld(t);
    const inviter = await makeBettor(t, w.agentA);
    const [{ code }] = await t.database.db.select({ code: bettors.invitationCode }).from(bettors).where(eq(bettors.id, inviter.id));
    const r = await t.call('POST', '/api/v1/sandbox/betting/orders', { token, body: { invitation_code: code!.toLowerCase() } });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.inviter_id).toBe(inviter.id);
    const [invitee] = await t.database.db.select().from(bettors).where(eq(bettors.id, r.body.bettor_id));
    expect(invitee).toMatchObject({ inviterId: inviter.id, agentId: w.agentA });
    const events = await t.database.db.select().from(promotionEvents).where(and(eq(promotionEvents.kind, 'invited'), eq(promotionEvents.bettorId, invitee!.id)));
    expect(events.map((e) => e.data)).toEqual([{ inviterId: inviter.id }]);
    // Without a code, no inviter.
    expect((await t.call('POST', '/api/v1/sandbox/betting/orders', { token, body: {} })).body.inviter_id).toBeNull();
    // Another branch's bettor cannot be named as the inviter; an unknown code is a bad field.
    await grantKeys(t, w.agentRole, ['order_list', 'order_list:random_bet']);
    const agentB = await t.login('agent_b');
    const other = await t.call('POST', '/api/v1/sandbox/betting/orders', { token: agentB, body: { invitation_code: code } });
    expect(other.status).toBe(403);
    const unknown = await t.call('POST', '/api/v1/sandbox/betting/orders', { token, body: { invitation_code: 'NOSUCHCODE1' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('PARAM_INVALID');
  });
});
