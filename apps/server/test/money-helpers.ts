import { ACCOUNT_KIND, BILL_TYPE } from '@dau/domain';
import { bettors } from '../src/schema.js';
import { HOUSE, post } from '../src/modules/money/ledger.js';
import type { TestApp } from './helpers.js';

let n = 0;
/** A bettor of an agent, optionally funded through a recharge bill (so the ledger stays balanced). */
export async function makeBettor(t: TestApp, agentId: number, opts: { cash?: number; phone?: string; name?: string } = {}) {
  n += 1;
  const phone = opts.phone ?? `2557${String(10_000_000 + n * 7919 + Math.floor(Math.random() * 1000)).slice(-8)}`;
  const [b] = await t.database.db.insert(bettors).values({ phone, name: opts.name ?? `Bettor ${n}`, agentId, invitationCode: `T${Date.now().toString(36)}${n}`.toUpperCase() }).returning();
  if (opts.cash) {
    await t.database.db.transaction((tx) =>
      post(tx, { bettorId: b.id, account: ACCOUNT_KIND.cash, amount: opts.cash!, type: BILL_TYPE.user_recharge, cause: { type: 'recharge', id: `seed-${b.id}` }, house: HOUSE.clearing(6) }),
    );
  }
  return b;
}
