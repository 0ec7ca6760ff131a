import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ADMIN_PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { bettors, bills } from '../src/schema.js';
import { checkInvariants } from '../src/modules/money/ledger.js';

/** Concurrency is only real on PostgreSQL (PGlite has one connection): CI runs this with TEST_DATABASE_URL. */
// Not silent: `npm test` runs these on the local PostgreSQL whenever it answers (scripts/test.mjs).
if (!process.env.TEST_DATABASE_URL) console.warn('SKIPPED: 2 concurrency cases of money-concurrency.test.ts need PostgreSQL (set TEST_DATABASE_URL)');
describe.skipIf(!process.env.TEST_DATABASE_URL)('concurrent balance edits (PostgreSQL)', () => {
  let t: TestApp;
  let root: string;
  beforeAll(async () => {
    t = await createTestApp();
    await makeWorld(t);
    root = await t.login('admin', ADMIN_PASSWORD);
  });
  afterAll(() => t?.close());

  it('200 concurrent edits on one account: final = start + accepted, one bill per accepted, refused wrote nothing', async () => {
    const start = 100_000;
    const b = await makeBettor(t, 1, { cash: start });
    // Debits larger than credits, so that some must be refused once the balance runs low.
    const amounts = Array.from({ length: 200 }, (_, i) => (i % 3 === 0 ? 7_000 : -4_500 - (i % 7) * 100));
    const results = await Promise.all(
      amounts.map((amount, i) => t.call('POST', `/api/v1/money/bettors/${b.id}/balance`, { token: root, body: { amount, remark: `edit ${i}` } })),
    );
    const accepted = amounts.filter((_, i) => results[i].status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((r) => r.status === 422 && r.body.code === 'INSUFFICIENT_BALANCE')).toBe(true);
    const [row] = await t.database.db.select().from(bettors).where(eq(bettors.id, b.id));
    expect(row.cashBalance).toBe(start + accepted.reduce((a, x) => a + x, 0));
    const [{ n }] = await t.database.db.select({ n: sql<number>`count(*)::int` }).from(bills).where(sql`${bills.bettorId} = ${b.id} and ${bills.type} = 22`);
    expect(n).toBe(accepted.length);
    expect(row.cashBalance).toBeGreaterThanOrEqual(0);
    expect(await checkInvariants(t.database.db)).toEqual([]);
  });

  it('the same idempotency key sent 20 times at once moves money once', async () => {
    const b = await makeBettor(t, 1, { cash: 1_000 });
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.call('POST', `/api/v1/money/bettors/${b.id}/balance`, { token: root, headers: { 'idempotency-key': 'same-dialog-123' }, body: { amount: 250, remark: 'once' } })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    const [row] = await t.database.db.select().from(bettors).where(eq(bettors.id, b.id));
    expect(row.cashBalance).toBe(1_250);
  });
});
