/**
 * The queue of held jackpot prizes (issue 23). A ticket's net prize above its bet type's max_add_balance
 * is `withheld` and sits on the house account jackpot_prizes_payable (./settlement.ts). Here it is paid by
 * hand, maker-checker:
 *  - an admin asks for a payment of part or all of what is left (POST .../pay to the bettor's balance, or
 *    POST .../pay_outside to record it as paid outside the balances, a bank transfer with its reference),
 *    with a reason; nothing moves yet, the request waits (jackpot_prize_payouts, pending) and the admins
 *    who may approve it hear of it;
 *  - another admin approves it (the asker cannot): in one transaction the request is claimed (locked,
 *    still pending), the ticket locked, the amount checked against what is still held, the money moved
 *    from jackpot_prizes_payable through the ledger as BILL_TYPE.jackpot_payment (to the bettor's cash
 *    balance, or a house transfer to jackpot_prizes_paid_outside) and the ticket's `held_paid` raised (a
 *    CHECK keeps it within `withheld`); or refuses it with a reason (the asker's own refusal withdraws it).
 * Asking never reserves more than is held: the amount must fit in held - paid - pending. A repeated
 * approval finds the request decided (409); a repeated ask with its Idempotency-Key answers the first.
 * Scope: the bettor's branch (the ticket's agent), for the list, the asks and the decisions.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ACCOUNT_KIND, BILL_TYPE, JACKPOT_HELD_STATE, JACKPOT_PAYOUT_KIND, JACKPOT_PAYOUT_STATUS, LOG_TYPE, formatAmount } from '@dau/domain';
import {
  idParams, jackpotHeldDetail, jackpotHeldFilters, jackpotHeldRow, jackpotPayBody, jackpotPayOutsideBody, jackpotPayoutRefuseBody, jackpotPayoutRow,
  jackpotTicketIdParams,
} from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Executor, Tx } from '../../platform/db.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { idempotent } from '../../platform/idempotency.js';
import { defineList, registerList, scopeCondition, scopeOf, withinDates, type Scope } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';
import { admins } from '../../platform/schema.js';
import { bettors, HOUSE, houseTransfer, newTxnId, ofBettor, post } from '../money/index.js';
import { createNotices, noticeRecipients, publishNotices, type NoticeEvent } from '../notices/index.js';
import { jackpotIssues, jackpotPrizePayouts, jackpotTickets } from './schema.js';

const PAGE = 'jackpot_held_prize';
const { pending: PENDING, paid: PAID, refused: REFUSED, withdrawn: WITHDRAWN } = JACKPOT_PAYOUT_STATUS;

// ------------------------------------------------------------------------------------------------ rows

/** Asked and not decided yet, per ticket. */
const pendingOf = sql<string>`(select coalesce(sum(p.amount), 0) from jackpot_prize_payouts p where p.ticket_id = ${jackpotTickets.id} and p.status = ${PENDING})`;
/** JACKPOT_HELD_STATE of a ticket: paid when nothing is left, else awaiting approval, part paid or held. */
const stateOf = sql<number>`(case
  when ${jackpotTickets.withheld} <= ${jackpotTickets.heldPaid} then ${JACKPOT_HELD_STATE.paid}
  when exists (select 1 from jackpot_prize_payouts p where p.ticket_id = ${jackpotTickets.id} and p.status = ${PENDING}) then ${JACKPOT_HELD_STATE.awaiting_approval}
  when ${jackpotTickets.heldPaid} > 0 then ${JACKPOT_HELD_STATE.part_paid}
  else ${JACKPOT_HELD_STATE.held} end)`;

const selectHeld = (ex: Executor) =>
  ex
    .select({ ticket: jackpotTickets, identifier: jackpotIssues.identifier, phone: bettors.phone, name: bettors.name, pending: pendingOf, state: stateOf })
    .from(jackpotTickets)
    .innerJoin(bettors, eq(bettors.id, jackpotTickets.bettorId))
    .innerJoin(jackpotIssues, eq(jackpotIssues.id, jackpotTickets.issueId));

type HeldSelect = { ticket: typeof jackpotTickets.$inferSelect; identifier: string; phone: string; name: string; pending: string | number; state: string | number };

function toHeldRow(r: HeldSelect): z.infer<typeof jackpotHeldRow> {
  const t = r.ticket;
  return {
    id: t.id, serial_number: t.serialNumber, issue_id: t.issueId, identifier: r.identifier, bettor_id: t.bettorId, phone: r.phone, user_name: r.name,
    gross: t.gross, credited: t.credited, held: t.withheld, paid: t.heldPaid, pending: Number(r.pending), remaining: t.withheld - t.heldPaid,
    state: Number(r.state), settlement_time: t.settledAt?.toISOString() ?? null,
  };
}

type HeldFilters = z.infer<typeof jackpotHeldFilters>;

const heldWhere = (q: HeldFilters, scope: Scope): SQL | undefined =>
  and(
    sql`${jackpotTickets.withheld} > 0`,
    scopeCondition(scope, jackpotTickets.agentId),
    q.serial_number ? eq(jackpotTickets.serialNumber, q.serial_number) : undefined,
    q.identifier ? sql`${jackpotTickets.issueId} = (select id from jackpot_issues where identifier = ${q.identifier})` : undefined,
    ofBettor(jackpotTickets.bettorId, q),
    q.state ? sql`${stateOf} = ${q.state}` : undefined,
    withinDates(jackpotTickets.settledAt, q.settled_at_from, q.settled_at_to),
  );

export const HELD_PRIZE_LIST = defineList({
  name: PAGE, page: PAGE, path: '/api/v1/jackpot/held_prizes', filters: jackpotHeldFilters, where: heldWhere, select: selectHeld,
  idColumn: jackpotTickets.id, summary: 'List the jackpot prizes of my branch held above the cap, with what was paid of them, filtered, sorted and paged',
  sortable: {
    id: jackpotTickets.id, held: jackpotTickets.withheld, remaining: sql`${jackpotTickets.withheld} - ${jackpotTickets.heldPaid}`, settlement_time: jackpotTickets.settledAt,
  },
  defaultSort: '-id', toRow: toHeldRow, row: jackpotHeldRow,
  countFrom: (ex: Executor) => ex.select({ id: jackpotTickets.id }).from(jackpotTickets),
  columns: [
    { key: 'serial_number' }, { key: 'identifier' }, { key: 'phone' }, { key: 'user_name' }, { key: 'held', money: true }, { key: 'paid', money: true },
    { key: 'pending', money: true }, { key: 'remaining', money: true }, { key: 'state', enum: 'jackpot_held_state' }, { key: 'settlement_time' },
  ],
});

const asker = alias(admins, 'payout_asker');
const decider = alias(admins, 'payout_decider');
type Payout = typeof jackpotPrizePayouts.$inferSelect;

const selectPayouts = (ex: Executor) =>
  ex
    .select({ p: jackpotPrizePayouts, asker: asker.account, decider: decider.account })
    .from(jackpotPrizePayouts)
    .leftJoin(asker, eq(asker.id, jackpotPrizePayouts.requestedBy))
    .leftJoin(decider, eq(decider.id, jackpotPrizePayouts.decidedBy));

const toPayoutRow = ({ p, asker: a, decider: d }: { p: Payout; asker: string | null; decider: string | null }): z.infer<typeof jackpotPayoutRow> => ({
  id: p.id, ticket_id: p.ticketId, kind: p.kind, amount: p.amount, reference: p.reference, reason: p.reason, status: p.status,
  requested_by_id: p.requestedBy, requested_by: a, requested_at: p.requestedAt.toISOString(), decided_by_id: p.decidedBy, decided_by: d,
  decided_at: p.decidedAt?.toISOString() ?? null, refuse_reason: p.refuseReason,
});

async function payoutRow(ex: Executor, id: number) {
  const [r] = await selectPayouts(ex).where(eq(jackpotPrizePayouts.id, id));
  return toPayoutRow(r!);
}

/** A held prize of the admin's branch with its payment requests; 404 outside the branch or with nothing held. */
async function heldDetail(ex: Executor, scope: Scope, ticketId: number) {
  const [r] = await selectHeld(ex).where(and(eq(jackpotTickets.id, ticketId), heldWhere({}, scope)));
  if (!r) throw notFound();
  const payouts = await selectPayouts(ex).where(eq(jackpotPrizePayouts.ticketId, ticketId)).orderBy(asc(jackpotPrizePayouts.id));
  return { prize: toHeldRow(r as HeldSelect), payouts: payouts.map(toPayoutRow) };
}

// ------------------------------------------------------------------------------------------- approvers

/**
 * Who may approve a payment of a held prize of this agent's bettor: the enabled admins holding the
 * approve button (super admins hold every button) whose data scope holds the agent, except the asker.
 */
async function approversOf(tx: Tx, agentId: number, asked: number): Promise<number[]> {
  return (await noticeRecipients(tx, `${PAGE}:approve`, { agentId, except: asked })).map((a) => a.id);
}

/** The notice to the approvers, in the console's three languages (admins have no language of their own on the server). */
const askedText = (serial: string, amount: number, kind: number, account: string) => {
  const tsh = formatAmount(amount);
  return kind === JACKPOT_PAYOUT_KIND.outside
    ? [
      `Held jackpot prize of ticket ${serial}: ${account} recorded TSh ${tsh} as paid outside. Approve or refuse it under Held jackpot prizes.`,
      `Zawadi ya jackpot iliyozuiliwa ya tiketi ${serial}: ${account} amerekodi TSh ${tsh} kama imelipwa nje ya mfumo. Idhinisha au kataa kwenye Zawadi za jackpot zilizozuiliwa.`,
      `投注单 ${serial} 的暂扣奖池奖金：${account} 登记了线下支付 TSh ${tsh}。请在"暂扣的奖池奖金"中批准或拒绝。`,
    ].join('\n')
    : [
      `Held jackpot prize of ticket ${serial}: ${account} asks to pay TSh ${tsh} to the bettor's balance. Approve or refuse it under Held jackpot prizes.`,
      `Zawadi ya jackpot iliyozuiliwa ya tiketi ${serial}: ${account} anaomba kulipa TSh ${tsh} kwenye salio la mchezaji. Idhinisha au kataa kwenye Zawadi za jackpot zilizozuiliwa.`,
      `投注单 ${serial} 的暂扣奖池奖金：${account} 申请向投注者余额支付 TSh ${tsh}。请在"暂扣的奖池奖金"中批准或拒绝。`,
    ].join('\n');
};

// ------------------------------------------------------------------------------------------- services

export interface PayoutAsk {
  kind: number;
  amount: number;
  reason: string;
  reference?: string;
}

/**
 * Asks for a payment of (part of) a ticket's held prize, in the caller's transaction: the ticket locked
 * (asks of one ticket are serialised), inside `scope`, with at least `amount` neither paid nor asked.
 * Answers the pending request and the notices to publish after the commit.
 */
export async function askPayout(tx: Tx, scope: Scope, adminId: number, ticketId: number, ask: PayoutAsk): Promise<{ payout: Payout; notices: NoticeEvent[] }> {
  const [t] = await tx.select().from(jackpotTickets).where(and(eq(jackpotTickets.id, ticketId), heldWhere({}, scope))).for('update');
  if (!t) throw notFound();
  const [{ asked }] = (await tx
    .select({ asked: sql<string>`coalesce(sum(${jackpotPrizePayouts.amount}), 0)` })
    .from(jackpotPrizePayouts)
    .where(and(eq(jackpotPrizePayouts.ticketId, t.id), eq(jackpotPrizePayouts.status, PENDING)))) as { asked: string }[];
  const free = t.withheld - t.heldPaid - Number(asked);
  if (ask.amount > free) throw new AppError(422, 'JACKPOT_PAYOUT_ABOVE_HELD', { remaining: formatAmount(Math.max(0, free)) });
  const [payout] = await tx
    .insert(jackpotPrizePayouts)
    .values({ ticketId: t.id, bettorId: t.bettorId, agentId: t.agentId, kind: ask.kind, amount: ask.amount, reference: ask.reference ?? '', reason: ask.reason, requestedBy: adminId })
    .returning();
  const [me] = await tx.select({ account: admins.account }).from(admins).where(eq(admins.id, adminId));
  const notices = await createNotices(tx, await approversOf(tx, t.agentId, adminId), askedText(t.serialNumber, ask.amount, ask.kind, me?.account ?? `#${adminId}`), adminId);
  return { payout: payout!, notices };
}

/** The pending request, locked, inside `scope`: 404 outside it, 409 once decided. */
async function claim(tx: Executor, scope: Scope, payoutId: number): Promise<Payout> {
  const [p] = await tx.select().from(jackpotPrizePayouts).where(eq(jackpotPrizePayouts.id, payoutId)).for('update');
  if (!p || !agentInScope(scope, p.agentId)) throw notFound();
  if (p.status !== PENDING) throw conflict('JACKPOT_PAYOUT_DECIDED');
  return p;
}

/**
 * Approves a pending request (not the asker's own) and pays it, in the caller's transaction: the ticket
 * locked, the amount within what is still held, the money from jackpot_prizes_payable as a jackpot
 * payment (the bettor's cash balance, or a house transfer to jackpot_prizes_paid_outside), `held_paid`
 * raised, the request paid with its journal transaction. Answers the request before and after.
 */
export async function approvePayout(tx: Executor, scope: Scope, adminId: number, payoutId: number): Promise<{ before: Payout; after: Payout; serial: string }> {
  const before = await claim(tx, scope, payoutId);
  if (before.requestedBy === adminId) throw new AppError(422, 'JACKPOT_PAYOUT_SAME_ADMIN');
  const [t] = await tx.select().from(jackpotTickets).where(eq(jackpotTickets.id, before.ticketId)).for('update');
  if (!t) throw notFound();
  const left = t.withheld - t.heldPaid;
  // A resettlement may have lowered the held prize since the request was made.
  if (before.amount > left) throw new AppError(422, 'JACKPOT_PAYOUT_ABOVE_HELD', { remaining: formatAmount(Math.max(0, left)) });
  const txnId = newTxnId();
  if (before.kind === JACKPOT_PAYOUT_KIND.balance) {
    await post(tx, {
      bettorId: before.bettorId, account: ACCOUNT_KIND.cash, amount: before.amount, type: BILL_TYPE.jackpot_payment, cause: { type: 'jackpot', id: t.id },
      house: HOUSE.jackpotPrizesPayable, adminId, remark: { kind: 'jackpot_held_paid', params: { ticket: t.serialNumber, request: before.id } }, txnId,
    });
  } else {
    await houseTransfer(tx, txnId, HOUSE.jackpotPrizesPayable, HOUSE.jackpotPaidOutside, before.amount, BILL_TYPE.jackpot_payment);
  }
  await tx.update(jackpotTickets).set({ heldPaid: sql`${jackpotTickets.heldPaid} + ${before.amount}` }).where(eq(jackpotTickets.id, t.id));
  const [after] = await tx
    .update(jackpotPrizePayouts)
    .set({ status: PAID, decidedBy: adminId, decidedAt: new Date(), txnId })
    .where(and(eq(jackpotPrizePayouts.id, payoutId), eq(jackpotPrizePayouts.status, PENDING)))
    .returning();
  if (!after) throw conflict('JACKPOT_PAYOUT_DECIDED');
  return { before, after, serial: t.serialNumber };
}

/** Refuses a pending request with a reason (the asker's own refusal withdraws it); nothing moves. */
export async function refusePayout(tx: Executor, scope: Scope, adminId: number, payoutId: number, reason: string): Promise<{ before: Payout; after: Payout }> {
  const before = await claim(tx, scope, payoutId);
  const [after] = await tx
    .update(jackpotPrizePayouts)
    .set({ status: before.requestedBy === adminId ? WITHDRAWN : REFUSED, decidedBy: adminId, decidedAt: new Date(), refuseReason: reason })
    .where(and(eq(jackpotPrizePayouts.id, payoutId), eq(jackpotPrizePayouts.status, PENDING)))
    .returning();
  if (!after) throw conflict('JACKPOT_PAYOUT_DECIDED');
  return { before, after };
}

// ---------------------------------------------------------------------------------------------- routes

const payoutParams = idParams;
const auditView = (p: Payout) => ({ ...p, requestedAt: p.requestedAt.toISOString(), decidedAt: p.decidedAt?.toISOString() ?? null });

export function heldPrizeRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [PAGE];
  const scopeOfReq = (req: FastifyRequest) => scopeOf(db, authOf(req));
  registerList(app, db, HELD_PRIZE_LIST);

  r.get(
    '/api/v1/jackpot/held_prizes/:id',
    { config: { access: { page: PAGE } }, schema: { tags, summary: 'A held jackpot prize of my branch with its payment requests', params: jackpotTicketIdParams, response: { 200: jackpotHeldDetail } } },
    async (req) => heldDetail(db, await scopeOfReq(req), req.params.id),
  );

  /** Asks for a payment (to the balance or recorded outside); waits for another admin. */
  const ask = async (req: FastifyRequest, ticketId: number, body: PayoutAsk) => {
    const scope = await scopeOfReq(req);
    const adminId = authOf(req).admin.id;
    let notices: NoticeEvent[] = [];
    const id = await idempotent(db, req, async (tx) => {
      const out = await askPayout(tx, scope, adminId, ticketId, body);
      notices = out.notices;
      const what = body.kind === JACKPOT_PAYOUT_KIND.outside ? `recorded as paid outside (${body.reference})` : 'asked to pay to the balance';
      await writeAudit(tx, req, {
        type: LOG_TYPE.ordinary,
        content: `Held jackpot prize of ticket #${ticketId}: TSh ${formatAmount(body.amount)} ${what}, awaiting a second approval: ${body.reason}`,
        before: null,
        after: auditView(out.payout),
      });
      return out.payout.id;
    });
    await publishNotices(ctx.bus, notices);
    return payoutRow(db, id);
  };

  // Asking: to the balance, or recorded as paid outside (with the payment's reference).
  const asks = [
    {
      path: 'pay', kind: JACKPOT_PAYOUT_KIND.balance, body: jackpotPayBody,
      summary: "Ask to pay (part of) a held jackpot prize to the bettor's balance (a second admin approves)",
      description: 'Nothing moves until another admin approves. Refused (422 JACKPOT_PAYOUT_ABOVE_HELD) above what is neither paid nor asked. An `Idempotency-Key` makes a repeat answer the first request.',
    },
    {
      path: 'pay_outside', kind: JACKPOT_PAYOUT_KIND.outside, body: jackpotPayOutsideBody,
      summary: 'Record (part of) a held jackpot prize as paid outside the balances, e.g. by bank transfer (a second admin approves)',
      description: "With the payment's reference and a reason. Nothing moves until another admin approves; then it leaves jackpot_prizes_payable for jackpot_prizes_paid_outside. An `Idempotency-Key` makes a repeat answer the first request.",
    },
  ] as const;
  for (const a of asks) {
    r.post(
      `/api/v1/jackpot/held_prizes/:id/${a.path}`,
      {
        config: { access: { page: PAGE, button: a.path } },
        schema: { tags, summary: a.summary, description: a.description, params: jackpotTicketIdParams, body: a.body, response: { 201: jackpotPayoutRow } },
      },
      async (req, reply) => reply.status(201).send(await ask(req, req.params.id, { kind: a.kind, ...(req.body as Omit<PayoutAsk, 'kind'>) })),
    );
  }

  /** Decides a request (approve, refuse) in one transaction with its audit row; answers the request as it is now. */
  const decide = async (req: FastifyRequest, payoutId: number, run: (tx: Tx, scope: Scope, adminId: number) => Promise<{ before: Payout; after: Payout; type: number; content: string }>) => {
    const scope = await scopeOfReq(req);
    const adminId = authOf(req).admin.id;
    await db.transaction(async (tx) => {
      const d = await run(tx, scope, adminId);
      await writeAudit(tx, req, { type: d.type, content: d.content, before: auditView(d.before), after: auditView(d.after) });
    });
    return payoutRow(db, payoutId);
  };

  r.post(
    '/api/v1/jackpot/prize_payouts/:id/approve',
    {
      config: { access: { page: PAGE, button: 'approve' } },
      schema: {
        tags, summary: 'Approve a payment of a held jackpot prize of my branch (not one I asked for) and pay it', params: payoutParams, response: { 200: jackpotPayoutRow },
        description: 'Moves the money in the same transaction (a jackpot payment from jackpot_prizes_payable). Refused: by the asker (422 JACKPOT_PAYOUT_SAME_ADMIN), above what is still held (422), once decided (409).',
      },
    },
    (req) =>
      decide(req, req.params.id, async (tx, scope, adminId) => {
        const { before, after, serial } = await approvePayout(tx, scope, adminId, req.params.id);
        const how = after.kind === JACKPOT_PAYOUT_KIND.outside ? `recorded as paid outside (${after.reference})` : "paid to the bettor's balance";
        return { before, after, type: LOG_TYPE.update_balance, content: `Held jackpot prize of ticket ${serial}: TSh ${formatAmount(after.amount)} ${how}, request #${after.id} approved` };
      }),
  );

  r.post(
    '/api/v1/jackpot/prize_payouts/:id/refuse',
    {
      config: { access: { page: PAGE, button: 'approve' } },
      schema: {
        tags, summary: 'Refuse a payment of a held jackpot prize of my branch (withdraws it when I asked for it)', params: payoutParams, body: jackpotPayoutRefuseBody,
        response: { 200: jackpotPayoutRow },
      },
    },
    (req) =>
      decide(req, req.params.id, async (tx, scope, adminId) => {
        const { before, after } = await refusePayout(tx, scope, adminId, req.params.id, req.body.reason);
        const what = after.status === WITHDRAWN ? 'withdrawn' : 'refused';
        return { before, after, type: LOG_TYPE.ordinary, content: `Held jackpot prize payment request #${after.id} ${what}: ${req.body.reason}` };
      }),
  );
}
