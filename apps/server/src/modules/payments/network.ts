import { eq } from 'drizzle-orm';
import type { BettorNetworkAnswer } from '@dau/contract';
import { LOG_TYPE, MOBILE_MONEY_PAY_TYPES, TZ_NETWORK_PREFIXES, enumLabel, formatTzPhoneLocal, networkOf } from '@dau/domain';
import { listenToBettors, scopedBettor } from '../money/index.js';
import { portedNumbers } from './schema.js';
import { AppError, badRequest } from '../../platform/errors.js';
import { writeAudit } from '../../platform/audit.js';
import type { Db, Executor } from '../../platform/db.js';
import { admins } from '../../platform/schema.js';
import type { Actor } from './shared.js';

/**
 * The number decides the network (issue 28). A payout through Airtel Money to a Vodacom number fails at
 * the operator at best and, with an operator that accepts any number, pays a stranger: a withdrawal that
 * names a mobile-money pay type is refused before its money is held unless the number's network is the
 * pay type's. The network comes from the prefix table (domain msisdn.ts); a number ported to another
 * network keeps its prefix, so an admin's record (ported_numbers) wins over the prefix, both ways.
 */

const payTypeName = (payType: number) => enumLabel('pay_type', payType);

/** The network the table names for a pay type (the name of its first well-known row). */
const networkNameOf = (payType: number) => TZ_NETWORK_PREFIXES.find((r) => r.payType === payType && !r.uncertain)?.network ?? payTypeName(payType);

async function portedOf(ex: Executor, phone: string) {
  const [row] = await ex.select().from(portedNumbers).where(eq(portedNumbers.phone, phone));
  return row;
}

/**
 * Passes when `phone` may receive money through `payType`: the admin's ported record names that pay
 * type, or (no record) the prefix's network is the pay type's. Otherwise 422: PAY_TYPE_NOT_NETWORK
 * (the number's network named) or PAY_TYPE_UNKNOWN_NETWORK (a prefix in no row). A pay type that does
 * not pay to a phone (USDT) is not checked.
 */
export async function checkNetwork(ex: Executor, phone: string, payType: number): Promise<void> {
  if (!MOBILE_MONEY_PAY_TYPES.includes(payType)) return;
  const ported = await portedOf(ex, phone);
  const row = networkOf(phone);
  const reaches = ported ? ported.payType : row?.payType;
  if (reaches === payType) return;
  const params = { phone: formatTzPhoneLocal(phone), payType: payTypeName(payType) };
  if (ported) throw new AppError(422, 'PAY_TYPE_NOT_NETWORK', { ...params, network: `${networkNameOf(ported.payType)} (ported)` });
  if (row) throw new AppError(422, 'PAY_TYPE_NOT_NETWORK', { ...params, network: row.network });
  throw new AppError(422, 'PAY_TYPE_UNKNOWN_NETWORK', { ...params, prefix: phone.slice(3, 5) });
}

/** The network of a number as the bettor's detail shows it: the table's row, the ported record, and what a withdrawal may use. */
export async function networkView(ex: Executor, phone: string): Promise<BettorNetworkAnswer> {
  const row = networkOf(phone);
  const [ported] = await ex
    .select({ p: portedNumbers, account: admins.account })
    .from(portedNumbers)
    .leftJoin(admins, eq(admins.id, portedNumbers.markedBy))
    .where(eq(portedNumbers.phone, phone));
  return {
    phone,
    network: row ? { prefix: row.prefix, name: row.network, pay_type: row.payType, source: row.source, note: row.note, uncertain: !!row.uncertain } : null,
    ported: ported
      ? { pay_type: ported.p.payType, remark: ported.p.remark, marked_by: ported.p.markedBy, marked_by_account: ported.account, marked_at: ported.p.markedAt.toISOString() }
      : null,
    pay_type: ported ? ported.p.payType : (row?.payType ?? null),
  };
}

const portedView = (p: typeof portedNumbers.$inferSelect | undefined) =>
  p ? { phone: p.phone, pay_type: p.payType, remark: p.remark, marked_by: p.markedBy, marked_at: p.markedAt.toISOString() } : null;

/**
 * Records that the number of a bettor of the admin's scope was ported to the network of `payType` (a
 * mobile-money one), with the admin's remark; a second mark replaces the first. Audited with the record
 * before and after, as the other money actions are.
 */
export async function markPorted(db: Db, actor: Actor, bettorId: number, input: { payType: number; remark: string }): Promise<BettorNetworkAnswer> {
  if (!MOBILE_MONEY_PAY_TYPES.includes(input.payType)) throw badRequest('PARAM_INVALID', [{ field: 'pay_type', message: 'a mobile-money pay type: 3, 4, 6 or 7' }]);
  return db.transaction(async (tx) => {
    const b = await scopedBettor(tx, actor.scope, bettorId, true);
    const before = await portedOf(tx, b.phone);
    const values = { payType: input.payType, remark: input.remark, markedBy: actor.adminId, markedAt: new Date() };
    const [after] = await tx
      .insert(portedNumbers)
      .values({ phone: b.phone, ...values })
      .onConflictDoUpdate({ target: portedNumbers.phone, set: values })
      .returning();
    await writeAudit(tx, actor.req, {
      type: LOG_TYPE.update_user_info,
      content: `Marked the number ${b.phone} of bettor #${b.id} as ported to ${payTypeName(input.payType)} (prefix network: ${networkOf(b.phone)?.network ?? 'unknown'}): ${input.remark}`,
      before: { ported: portedView(before) },
      after: { ported: portedView(after) },
    });
    return networkView(tx, b.phone);
  });
}

/** Removes the ported record of the number of a bettor of the admin's scope: the prefix decides again. Audited. */
export async function unmarkPorted(db: Db, actor: Actor, bettorId: number): Promise<BettorNetworkAnswer> {
  return db.transaction(async (tx) => {
    const b = await scopedBettor(tx, actor.scope, bettorId, true);
    const [before] = await tx.delete(portedNumbers).where(eq(portedNumbers.phone, b.phone)).returning();
    if (before) {
      await writeAudit(tx, actor.req, {
        type: LOG_TYPE.update_user_info,
        content: `Removed the ported mark of the number ${b.phone} of bettor #${b.id} (was ${payTypeName(before.payType)})`,
        before: { ported: portedView(before) },
        after: { ported: null },
      });
    }
    return networkView(tx, b.phone);
  });
}

// The bettor's detail (money's GET /money/bettors/:id) shows the network of the bettor's phone.
listenToBettors('payments.network', {
  detail: async (ex, bettor) => ({ network: await networkView(ex, bettor.phone) }),
});
