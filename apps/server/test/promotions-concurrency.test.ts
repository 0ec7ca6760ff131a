/**
 * The campaign budget under concurrency (issue 17), on PostgreSQL only (TEST_DATABASE_URL; PGlite has one
 * connection): 50 approvals of 50 pending qualifications arrive at once, each in its own request and
 * transaction; the budget covers 20 of them. Exactly 20 are approved with one bill each, the 30 others
 * answer PROMO_BUDGET_EXHAUSTED and stay pending, spent equals the budget, and the ledger holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { activityQualifications, bills } from '../src/schema.js';
import { checkInvariants } from '../src/modules/money/ledger';
import { admins } from '../src/platform/schema';
import { campaigns } from '../src/modules/promotions/schema';
import { ADMIN_PASSWORD, createTestApp, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';

const PG = process.env.TEST_DATABASE_URL;
if (!PG) console.warn('SKIPPED: promotions-concurrency.test.ts needs PostgreSQL (set TEST_DATABASE_URL)');

describe.skipIf(!PG)('50 concurrent approvals against one budget (PostgreSQL)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login('admin', ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('never spends beyond the budget', async () => {
    const db = t.database.db;
    const created = await t.call('POST', '/api/v1/promotions/campaigns', {
      token,
      body: {
        name: 'Race', type: 'custom', rules: {}, reward: { kind: 'cash', fixed_cents: 1_000 }, budget_cents: 20_000,
        starts_at: new Date(Date.now() - 86_400_000).toISOString(), ends_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as number;
    expect((await t.call('POST', `/api/v1/promotions/campaigns/${id}/activate`, { token })).status).toBe(200);
    const [root] = await db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
    const rows: number[] = [];
    for (let i = 0; i < 50; i++) {
      const b = await makeBettor(t, root.id);
      const r = await t.call('POST', `/api/v1/promotions/campaigns/${id}/award`, { token, body: { bettor_id: b.id } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      rows.push(r.body.id);
    }
    const answers = await Promise.all(rows.map((q) => t.call('POST', `/api/v1/promotions/qualifications/${q}/approve`, { token })));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status !== 200);
    expect(ok).toHaveLength(20);
    expect(refused.map((a) => a.body.code)).toEqual(Array(30).fill('PROMO_BUDGET_EXHAUSTED'));
    const [c] = await db.select().from(campaigns).where(eq(campaigns.id, id));
    expect(c.spentCents).toBe(20_000);
    const awarded = await db.select().from(bills).where(eq(bills.causeType, 'promotion'));
    expect(awarded).toHaveLength(20);
    const statuses = await db.select({ status: activityQualifications.status }).from(activityQualifications).where(eq(activityQualifications.campaignId, id));
    expect(statuses.filter((s) => s.status === 2)).toHaveLength(20);
    expect(statuses.filter((s) => s.status === 1)).toHaveLength(30);
    expect(await checkInvariants(db)).toEqual([]);
  });
});
