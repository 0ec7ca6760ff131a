import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { bettors } from '../src/schema.js';
import { admins } from '../src/platform/schema.js';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';

/**
 * "Active today" on the online statistics screen is the Dar es Salaam day (UTC+3), like every other
 * figure: at 21:30 UTC the day began at 21:00 UTC, so a sign-in at 20:50 UTC was yesterday.
 */
describe('online summary', () => {
  let t: TestApp;
  let token: string;
  const now = new Date('2026-11-25T21:30:00Z');

  beforeAll(async () => {
    vi.useFakeTimers({ toFake: ['Date'], now });
    t = await createTestApp();
    token = await t.login('admin', ADMIN_PASSWORD);
    const [root] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
    const today = await makeBettor(t, root.id);
    const yesterday = await makeBettor(t, root.id);
    await makeBettor(t, root.id); // never signed in
    await t.database.db.update(bettors).set({ lastLoginAt: new Date('2026-11-25T21:10:00Z') }).where(eq(bettors.id, today.id));
    await t.database.db.update(bettors).set({ lastLoginAt: new Date('2026-11-25T20:50:00Z') }).where(eq(bettors.id, yesterday.id));
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
  });

  it('counts the bettors who signed in since Dar es Salaam midnight', async () => {
    const r = await t.call('GET', '/api/v1/money/online/summary', { token });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ online: 0, active_today: 1, total: 3 });
  });
});
