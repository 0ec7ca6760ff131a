/**
 * The sandbox order maker (DAU_SANDBOX_ROUTES=1) under parallel calls (issue 11, finding 6): each call
 * creates its own bettor, so ten at once must all answer 201 with ten distinct bettors and phones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers.js';

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
