import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import { notifications } from '../src/schema.js';
import { buildApp, type DauApp } from '../src/app.js';
import { seed } from '../src/seed.js';
import { seedDemoMoney } from '../src/simulator/demo-money.js';
import { reconcileYesterday } from '../src/modules/payments/statements/service.js';
import { freshDatabase } from './helpers.js';

/**
 * A fresh demo's first impression: its 60 days of payments are in the sandbox operators' books too, so
 * the daily reconciliation of a demo day matches and greets nobody with a "statement does not match"
 * notice (the first start of a demo used to flag every demo payment of yesterday as "ours only", and the
 * persistent notice covered the console's drawers).
 */
let database: Awaited<ReturnType<typeof freshDatabase>>;
let built: DauApp;

beforeAll(async () => {
  database = await freshDatabase();
  await seed(database.db, { adminPassword: 'Admin#2026pass', demo: true });
  expect(await seedDemoMoney(database.db)).toBeGreaterThan(0);
  built = await buildApp({ database });
  await built.app.ready();
});
afterAll(async () => {
  await built?.app.close();
  await database?.dispose();
});

describe('the demo reconciled', () => {
  it('matches every sandbox statement of the last ten demo days, and leaves no notice', async () => {
    const results: { day: string; result: string; ours: number }[] = [];
    for (let k = 0; k < 10; k++) {
      const done = await reconcileYesterday(built.ctx, Date.now() - k * 86_400_000);
      results.push(...done.map((s) => ({ day: s.day, result: s.result, ours: s.ourCollect + s.ourDisburse })));
    }
    // Ten days of every sandbox pay type, with demo payments on them (else the check proves nothing).
    expect(results.length).toBeGreaterThanOrEqual(10);
    expect(results.reduce((a, r) => a + r.ours, 0)).toBeGreaterThan(0);
    expect(results.filter((r) => r.result !== 'matched')).toEqual([]);
    const [{ n }] = await database.db.select({ n: count() }).from(notifications);
    expect(n).toBe(0);
  });
});
