import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { ACCOUNT_KIND, BILL_TYPE, PAY_STATUS, RECHARGE_CHANNEL, formatAmount, validatePhone } from '@dau/domain';
import { bettors, insertHouseEntries, newSerial, newTxnId, postBatch } from '../money/index.js';
import { recharges } from './schema.js';
import { promotionEvent } from '../promotions/index.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import type { Db, Tx } from '../../platform/db.js';
import { paymentsOf } from './callbacks.js';
import { settleRecharge } from './settle.js';
import { checkAmount, clearingOf, loadBettor, loadRecharge, paymentSettings, type RechargeRecord } from './shared.js';

// ------------------------------------------------------------------------------------------------
// Recharges

/**
 * A bettor asks to deposit through an operator (the bettor-facing path; the simulator calls it): a
 * processing recharge with a serial number, then the operator is asked to collect: by a payment request
 * from the app (channel `app`, bill 4) or by a USSD push prompt to the handset (channel `ussd`, bill 11).
 * The outcome arrives by callback (or re-query), the same for both.
 */
export async function startRecharge(
  db: Db,
  input: { bettorId: number; payType: number; amount: number; phone?: string; channel?: 'app' | 'ussd' },
): Promise<RechargeRecord> {
  checkAmount(input.amount, input.payType);
  const op = paymentsOf(db).operator(input.payType);
  const ussd = input.channel === 'ussd';
  // An adapter without a USSD channel (USDT) cannot push a prompt.
  if (ussd && !op.ussdPush) throw badRequest('PARAM_INVALID', [{ field: 'pay_type' }]);
  const cfg = await paymentSettings(db);
  if (input.amount < cfg.minRecharge) throw new AppError(422, 'AMOUNT_BELOW_MINIMUM', { min: formatAmount(cfg.minRecharge) });
  const created = await db.transaction(async (tx) => {
    const b = await loadBettor(tx, input.bettorId);
    const phone = input.phone ? validatePhone(input.phone) : null;
    if (phone && !phone.ok) throw badRequest('PHONE_INVALID', [{ field: 'phone' }]);
    const [row] = await tx
      .insert(recharges)
      .values({
        serialNumber: newSerial('R'), bettorId: b.id, agentId: b.agentId, amount: input.amount, payType: input.payType,
        channel: ussd ? RECHARGE_CHANNEL.ussd : RECHARGE_CHANNEL.app,
        phone: phone?.ok ? phone.value : b.phone, payStatus: PAY_STATUS.processing, previousRechargeAt: b.lastRechargeAt,
      })
      .returning();
    return row;
  });
  try {
    const req = { reference: created.serialNumber, phone: created.phone, amount: created.amount };
    const res = ussd ? await op.ussdPush!(req) : await op.collect(req);
    const [row] = await db
      .update(recharges)
      .set({ carrierOrderNumber: res.carrierRef, updatedAt: new Date() })
      .where(and(eq(recharges.id, created.id), isNull(recharges.carrierOrderNumber)))
      .returning();
    if (res.status !== 'pending') {
      // A synchronous API answered the outcome itself: settled now, exactly as its callback would be.
      await db.transaction(async (tx) => {
        const cur = await loadRecharge(tx, created.id);
        await settleRecharge(
          tx, cur,
          res.status === 'success'
            ? { status: 'success', carrierRef: res.carrierRef, amount: created.amount }
            : { status: 'failed', reason: res.reason ?? 'Failed at the operator', carrierRef: res.carrierRef },
          paymentsOf(db).log,
        );
      });
      return loadRecharge(db, created.id);
    }
    return row ?? (await loadRecharge(db, created.id));
  } catch (err) {
    // A timeout or a transport error: the operator may or may not have the request. It stays
    // processing; the stuck queue re-queries it by our reference.
    paymentsOf(db).log('collect call failed', { serial: created.serialNumber, err: String(err) });
    return created;
  }
}

/**
 * A recharge whose money has already arrived (USDT on chain, modules/tron): recorded and credited in the
 * caller's transaction, once. `carrierRef` (the transfer's fingerprint) is the carrier order number, unique
 * per pay type: a second call with it inserts nothing and answers null. A disabled bettor is credited too
 * (the money is ours to hold for them).
 */
export async function recordReceivedRecharge(
  tx: Tx,
  input: { bettorId: number; payType: number; amount: number; carrierRef: string },
): Promise<RechargeRecord | null> {
  checkAmount(input.amount);
  const [b] = await tx
    .select({ id: bettors.id, phone: bettors.phone, agentId: bettors.agentId, lastRechargeAt: bettors.lastRechargeAt })
    .from(bettors)
    .where(eq(bettors.id, input.bettorId));
  if (!b) throw notFound();
  const [row] = await tx
    .insert(recharges)
    .values({
      serialNumber: newSerial('R'), bettorId: b.id, agentId: b.agentId, amount: input.amount, payType: input.payType, phone: b.phone,
      channel: RECHARGE_CHANNEL.chain, carrierOrderNumber: input.carrierRef, payStatus: PAY_STATUS.processing, previousRechargeAt: b.lastRechargeAt,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) return null;
  await settleRecharge(tx, row, { status: 'success' }, () => {});
  return loadRecharge(tx, row.id);
}

/**
 * Many received recharges at once (the chain watcher's block: up to thousands of deposits), in the caller's
 * transaction, with the same effect as recordReceivedRecharge for each: one recharge per carrier reference
 * (the unique key: references already recorded are skipped), paid, the bettor's balance and totals moved
 * once per bettor, one bill per recharge with its balance before and after (several for one bettor in
 * order), the journal's counter-entry on the pay type's clearing account. Set-based: a handful of
 * statements for the whole batch. Answers the recharges made, by carrier reference.
 */
export async function recordReceivedRecharges(
  tx: Tx,
  items: { bettorId: number; payType: number; amount: number; carrierRef: string }[],
): Promise<Map<string, { id: number; serialNumber: string; amount: number }>> {
  const out = new Map<string, { id: number; serialNumber: string; amount: number }>();
  if (!items.length) return out;
  for (const it of items) checkAmount(it.amount);
  const found = await tx
    .select({ id: bettors.id, phone: bettors.phone, agentId: bettors.agentId, lastRechargeAt: bettors.lastRechargeAt })
    .from(bettors)
    .where(inArray(bettors.id, [...new Set(items.map((i) => i.bettorId))]));
  const byId = new Map(found.map((b) => [b.id, b]));
  const made: (typeof recharges.$inferSelect)[] = [];
  for (let i = 0; i < items.length; i += 1000) {
    const rows = items.slice(i, i + 1000).flatMap((it) => {
      const b = byId.get(it.bettorId);
      return b
        ? [{
            serialNumber: newSerial('R'), bettorId: b.id, agentId: b.agentId, amount: it.amount, payType: it.payType, phone: b.phone,
            channel: RECHARGE_CHANNEL.chain, carrierOrderNumber: it.carrierRef, payStatus: PAY_STATUS.paid, paidAt: sql`now()`, previousRechargeAt: b.lastRechargeAt,
          }]
        : [];
    });
    if (rows.length) made.push(...(await tx.insert(recharges).values(rows as never).onConflictDoNothing().returning()));
  }
  if (!made.length) return out;
  // The money through the one ledger: one bill per recharge in the order made (a bettor's several chain),
  // balances moved once per bettor with the bettors locked in id order, the clearing account's counter-entries.
  const house = await postBatch(
    tx,
    made.map((r) => ({
      bettorId: r.bettorId, account: ACCOUNT_KIND.cash, amount: Number(r.amount), type: BILL_TYPE.user_recharge, house: clearingOf(r.payType),
      causeId: String(r.id), adminId: null, remark: { kind: 'recharge' as const, params: { serial: r.serialNumber } }, txnId: newTxnId(),
    })),
    'recharge',
  );
  await insertHouseEntries(tx, house);
  // The bettors' recharge totals (not money: what the bettor lists and promotions read).
  const perBettor = new Map<number, number>();
  for (const r of made) perBettor.set(r.bettorId, (perBettor.get(r.bettorId) ?? 0) + Number(r.amount));
  const totals = [...perBettor].map(([id, amount]) => sql`(${id}::int, ${amount}::bigint)`);
  await tx.execute(sql`
    UPDATE bettors b SET total_recharge = b.total_recharge + d.amount, last_recharge_at = greatest(coalesce(b.last_recharge_at, now()), now())
    FROM (VALUES ${sql.join(totals, sql`, `)}) AS d(id, amount) WHERE b.id = d.id`);
  for (const r of made) out.set(r.carrierOrderNumber!, { id: r.id, serialNumber: r.serialNumber, amount: Number(r.amount) });
  for (const r of made) await promotionEvent(tx, { kind: 'deposit', bettorId: r.bettorId, amount: Number(r.amount), rechargeId: r.id });
  return out;
}
