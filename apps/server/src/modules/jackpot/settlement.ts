/**
 * Jackpot settlement (issue 12; docs/architecture.md "The jackpot").
 *
 * Two phases, the second a durable job:
 *  1. `planSettlement` (the preview, and again inside the confirming request's transaction): the
 *     issue's 13 results, every ticket's hit counts (domain `hitCounts`), the winning lines per tier, the
 *     plan (domain `planIssue`: share, prize per line rounded down, rollover) and each ticket's money
 *     (domain `ticketPrize`: gross, tax, credited, withheld) summed; with a fingerprint of what it was
 *     computed from (results, tickets, pool, tax, the last version). Confirming (`startSettlement`)
 *     recomputes it in the request's transaction with the issue locked, refuses a changed fingerprint
 *     (JACKPOT_PREVIEW_STALE), stores it as the settlement record of version n+1 and enqueues
 *     `jackpot.settle-issue` {issueId, version} in the same transaction. The first settlement also funds
 *     the pool there, once (the version's row is unique): the carried jackpot taken off the bet type,
 *     jackpot_stakes -> jackpot_pool for the pool-rate share, bonuses -> jackpot_pool for the seed top-up
 *     and the incentives (and, fixed reward type, what the prizes cost beyond the pool).
 *  2. The job (`runSettlementPart`) pays the tickets in chunks of PAY_CHUNK by id, each chunk one
 *     transaction (`UPDATE ... WHERE settled_version < version` on tickets locked FOR UPDATE), so a
 *     process killed in the middle resumes where the committed chunks stopped and pays each ticket once.
 *     A ticket moves only the difference between what it should have and what it already has (so a
 *     resettlement after a result change moves only the difference, and settling twice moves nothing):
 *     the credited prize from HOUSE.jackpotPool, as BILL_TYPE.jackpot_payment in the first settlement and
 *     as BILL_TYPE.jackpot_result_change for a resettlement's difference (a negative difference that the
 *     balance cannot cover: BILL_TYPE.amount_rolled_back with a debt, as sports resettlements), the
 *     withholding tax as a house transfer jackpot_pool -> withholding_tax_payable and the part above
 *     max_add_balance as jackpot_pool -> jackpot_prizes_payable (held for a manual payout: ./held-prizes.ts;
 *     what was already paid of it stays held, `ticketMoney`). A job takes at most JOB_TICKETS tickets and
 *     queues the next part (in its last chunk's transaction), so one job stays well inside its expiry.
 *     When no ticket is left the issue closes: totals, settle_status, the rollover to the bet type's
 *     accumulated `jackpot` (by the difference with the previous version's rollover), the record `done`.
 * Deleting an issue and voiding it (cancelled-match rule) use the same record and job with kind
 * 'delete' / 'void': every ticket's payment reversed (BILL_TYPE.amount_rolled_back positive from
 * jackpot_stakes; the bonus-funded part back to the credit account, CREDIT_BILL_TYPE.credit_refund from
 * credit_issued). docs/architecture.md has the table of which movement posts which bill type.
 */
import crypto from 'node:crypto';
import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  ACCOUNT_KIND, BILL_TYPE, CREDIT_BILL_TYPE, JACKPOT_BET_STATUS, JACKPOT_MATCHES, JACKPOT_SETTLE_STATUS, JACKPOT_TICKET_STATUS,
  bpsOf, cancelledOutcome, hitCounts, planIssue, ticketPrize, type IssuePlan, type JackpotTier,
} from '@dau/domain';
import type { AppContext } from '../../platform/context.js';
import type { Db, Executor } from '../../platform/db.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import { HOUSE, insertHouseEntries, newTxnId, postBatch, type BatchBill, type HouseEntryRow, type Remark } from '../money/index.js';
import { loadSettings } from '../betting/index.js';
import { jackpotBetTypes, jackpotIssueMatches, jackpotIssues, jackpotSettlements } from './schema.js';
import { assertKickedOff, issueMatches, refreshFeedResults } from './service.js';

export const SETTLE_ISSUE_JOB = 'jackpot.settle-issue';
/** Tickets per transaction of the paying job. */
export const PAY_CHUNK = 2_000;
/** Tickets one job takes before it queues the next part (stays well inside a job's expiry). */
export const JOB_TICKETS = 10_000;
/** The sizes the job uses (tests make them small to exercise several chunks and parts). */
export const SETTLEMENT_TUNING = { chunk: PAY_CHUNK, jobTickets: JOB_TICKETS };

export type IssueRow = typeof jackpotIssues.$inferSelect;
export type BetTypeRow = typeof jackpotBetTypes.$inferSelect;
export type SettlementKind = 'settle' | 'resettle' | 'void' | 'delete';

import { poolParts, type PoolParts } from './pool.js';
export { poolParts, type PoolParts };

export const tiersOf = (bt: Pick<BetTypeRow, 'tiers'>): JackpotTier[] => bt.tiers.map((t) => ({ hits: t.hits, proportionBps: t.proportion_bps }));

/** Money totals of a set of tickets under a plan. */
export interface MoneyTotals {
  gross: number;
  tax: number;
  credited: number;
  withheld: number;
  winningLines: number;
  winningTickets: number;
}

/** What a settlement record stores (jackpot_settlements.plan) and the preview answers. */
export interface StoredPlan {
  kind: SettlementKind;
  version: number;
  fingerprint: string;
  results: (number | null)[];
  /** null for delete / void. */
  plan: IssuePlan | null;
  pool: PoolParts | null;
  tiers: JackpotTier[];
  rewardType: 1 | 2;
  taxBps: number;
  maxAddBalance: number;
  tickets: number;
  lines: number;
  stakes: number;
  bonusStakes: number;
  maxTicketId: number;
  /** What every ticket gets under this version. */
  totals: MoneyTotals;
  /** What this version moves compared with what the tickets already have. */
  difference: { tickets: number; credited: number; tax: number; withheld: number; refunds: number };
  /** The previous version's rollover and house-funded amounts (resettlement moves the differences). */
  previous: { rollover: number; houseFunded: number };
  /** Issue figures under this version (design statistics). */
  figures: { netIncome: number; netProfit: number; expenditure: number };
}

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(ex: Executor, q: SQL) => ((await ex.execute(q)) as unknown as Rows<T>).rows;
/** A set of rows as one parameter (node-postgres and PGlite alike). */
const recordset = (rows: unknown[]) => sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)`;

interface TicketMoneyRow {
  id: number;
  bettor_id: number;
  picks: number[];
  stake: number;
  bonus_stake: number;
  lines: number;
  status: number;
  gross: number;
  tax: number;
  credited: number;
  withheld: number;
  /** Of `withheld`, what was paid by hand already (./held-prizes.ts). */
  held_paid: number;
}

/** Picks come as one digit per match (masks are 1..7): `array_to_string(picks, '')`. */
export const picksOf = (s: string): number[] => {
  const out = new Array<number>(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) - 48;
  return out;
};

/** bigint columns come as text from node-postgres, as numbers from PGlite. */
function ticketOf(r: Record<string, unknown>): TicketMoneyRow {
  return {
    id: Number(r.id),
    bettor_id: Number(r.bettor_id),
    picks: picksOf(String(r.picks)),
    stake: Number(r.stake),
    bonus_stake: Number(r.bonus_stake),
    lines: Number(r.lines),
    status: Number(r.status),
    gross: Number(r.gross),
    tax: Number(r.tax),
    credited: Number(r.credited),
    withheld: Number(r.withheld),
    held_paid: Number(r.held_paid),
  };
}

const TICKET_COLUMNS = sql.raw("id, bettor_id, array_to_string(picks, '') AS picks, stake, bonus_stake, lines, status, gross, tax, credited, withheld, held_paid");

export async function loadIssue(ex: Executor, issueId: number, lock = false): Promise<IssueRow> {
  const q = ex.select().from(jackpotIssues).where(eq(jackpotIssues.id, issueId));
  const [issue] = lock ? await q.for('update') : await q;
  if (!issue) throw notFound();
  return issue;
}

export async function loadBetType(ex: Executor, id: number, lock = false): Promise<BetTypeRow> {
  const q = ex.select().from(jackpotBetTypes).where(eq(jackpotBetTypes.id, id));
  const [bt] = lock ? await q.for('update') : await q;
  if (!bt) throw notFound();
  return bt;
}

/** The issue's results in match order (null = not known); JACKPOT_MATCHES_REQUIRED without 13 matches. */
export async function issueResults(ex: Executor, issueId: number): Promise<(number | null)[]> {
  const rows = await ex
    .select({ position: jackpotIssueMatches.position, result: jackpotIssueMatches.result })
    .from(jackpotIssueMatches)
    .where(eq(jackpotIssueMatches.issueId, issueId))
    .orderBy(asc(jackpotIssueMatches.position));
  if (rows.length !== JACKPOT_MATCHES) throw new AppError(422, 'JACKPOT_MATCHES_REQUIRED');
  return rows.map((r) => r.result);
}

export async function lastSettlement(ex: Executor, issueId: number) {
  const [s] = await ex.select().from(jackpotSettlements).where(eq(jackpotSettlements.issueId, issueId)).orderBy(desc(jackpotSettlements.version)).limit(1);
  return s ?? null;
}

/** The last settle / resettle record of the issue (the money the tickets hold now). */
async function lastPaying(ex: Executor, issueId: number) {
  const [s] = await ex
    .select()
    .from(jackpotSettlements)
    .where(and(eq(jackpotSettlements.issueId, issueId), sql`${jackpotSettlements.kind} in ('settle', 'resettle')`))
    .orderBy(desc(jackpotSettlements.version))
    .limit(1);
  return s ?? null;
}

async function allTickets(ex: Executor, issueId: number): Promise<TicketMoneyRow[]> {
  const rows = await rowsOf<Record<string, unknown>>(ex, sql`SELECT ${TICKET_COLUMNS} FROM jackpot_tickets WHERE issue_id = ${issueId} ORDER BY id`);
  return rows.map(ticketOf);
}

const fingerprintOf = (parts: unknown[]) => crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 40);

/** Refusals of a settlement by the issue's state. */
function settleableKind(issue: IssueRow): 'settle' | 'resettle' {
  switch (issue.settleStatus) {
    case JACKPOT_SETTLE_STATUS.unsettled:
      return 'settle';
    case JACKPOT_SETTLE_STATUS.settled:
      return 'resettle';
    case JACKPOT_SETTLE_STATUS.settling:
      throw conflict('CONFLICT');
    case JACKPOT_SETTLE_STATUS.deleted:
      throw conflict('JACKPOT_DELETED');
    default:
      throw conflict('JACKPOT_ALREADY_SETTLED');
  }
}

/**
 * The feed's settled 1X2 results into the issue's matches (operator overrides stay), as the issue detail
 * reads them: before a preview and again in the confirming transaction, for an issue that may be settled.
 */
export async function takeFeedResults(tx: Executor, issue: IssueRow): Promise<void> {
  if (issue.settleStatus === JACKPOT_SETTLE_STATUS.unsettled || issue.settleStatus === JACKPOT_SETTLE_STATUS.settled) await refreshFeedResults(tx, issue.id);
}

/**
 * What a ticket should hold under a plan (domain `ticketPrize`), except that what was already paid by hand
 * of its held prize stays held: a resettlement that lowers the held part below it takes the rest from the
 * credited part instead (withheld = max(held, paid by hand), credited = net - withheld), so the bettor
 * gets the net prize in all and a held prize is never paid twice.
 */
function ticketMoney(t: TicketMoneyRow, results: readonly (number | null)[], plan: IssuePlan, taxBps: number, maxAddBalance: number) {
  const p = ticketPrize(hitCounts(t.picks, results), plan, t.stake, taxBps, maxAddBalance);
  const withheld = Math.max(p.withheld, t.held_paid);
  return { ...p, withheld, credited: p.net - withheld };
}

/**
 * The plan of the issue's next settlement (preview; recomputed by `startSettlement`). Refuses with
 * JACKPOT_RESULTS_MISSING while a result is unknown, JACKPOT_MATCH_NOT_STARTED while a match with a home,
 * draw or away result has not kicked off (issue 23).
 */
export async function planSettlement(ex: Executor, issue: IssueRow, opts: { lockBetType?: boolean } = {}): Promise<StoredPlan> {
  const wanted = settleableKind(issue);
  const results = await issueResults(ex, issue.id);
  if (results.some((r) => r === null || r === undefined)) throw new AppError(422, 'JACKPOT_RESULTS_MISSING');
  await assertKickedOff(ex, await issueMatches(ex, issue.id), new Map(results.map((r, i) => [i + 1, r])));
  const bt = await loadBetType(ex, issue.betTypeId, opts.lockBetType);
  const tickets = await allTickets(ex, issue.id);
  const last = await lastSettlement(ex, issue.id);
  const version = (last?.version ?? 0) + 1;
  const settings = await loadSettings(ex);
  const tiers = tiersOf(bt);
  const rewardType = (bt.rewardType === 2 ? 2 : 1) as 1 | 2;
  const stakes = tickets.reduce((s, t) => s + t.stake, 0);
  const lines = tickets.reduce((s, t) => s + t.lines, 0);
  const bonusStakes = tickets.reduce((s, t) => s + t.bonus_stake, 0);
  const maxTicketId = tickets.length ? tickets[tickets.length - 1].id : 0;
  const base = { version, results, tiers, rewardType, tickets: tickets.length, lines, stakes, bonusStakes, maxTicketId };

  const outcome = cancelledOutcome(results, bt.cancelRule === 2 ? 2 : 1, bt.cancelVoidThreshold);
  if (outcome === 'void') {
    // Void: every ticket refunded (only an issue not settled yet: a settled issue keeps its rule's reading).
    if (wanted === 'resettle') throw conflict('JACKPOT_ALREADY_SETTLED');
    const fingerprint = fingerprintOf(['void', results, tickets.length, maxTicketId, stakes, version]);
    return {
      ...base, kind: 'void', fingerprint, plan: null, pool: null, taxBps: 0, maxAddBalance: 0,
      totals: { gross: 0, tax: 0, credited: 0, withheld: 0, winningLines: 0, winningTickets: 0 },
      difference: { tickets: tickets.length, credited: 0, tax: 0, withheld: 0, refunds: stakes },
      previous: { rollover: 0, houseFunded: 0 },
      figures: { netIncome: 0, netProfit: 0, expenditure: 0 },
    };
  }

  // The pool: the first settlement's (resettlements keep it), else as it stands now.
  const paying = wanted === 'resettle' ? await lastPaying(ex, issue.id) : null;
  const before = paying ? (paying.plan as StoredPlan) : null;
  const pool = before?.pool ?? poolParts(bt, issue.incentives, stakes, lines);
  const taxBps = before?.taxBps ?? settings.taxBps;
  const maxAddBalance = before?.maxAddBalance ?? bt.maxAddBalance;

  const counts = tickets.map((t) => hitCounts(t.picks, results));
  const perTier = tiers.map((tier) => counts.reduce((s, c) => s + (c[tier.hits] ?? 0), 0));
  const plan = planIssue(pool.total, tiers, perTier, rewardType);
  const totals: MoneyTotals = { gross: 0, tax: 0, credited: 0, withheld: 0, winningLines: 0, winningTickets: 0 };
  const difference = { tickets: 0, credited: 0, tax: 0, withheld: 0, refunds: 0 };
  tickets.forEach((t) => {
    const p = ticketMoney(t, results, plan, taxBps, maxAddBalance);
    totals.gross += p.gross;
    totals.tax += p.tax;
    totals.credited += p.credited;
    totals.withheld += p.withheld;
    totals.winningLines += p.winningLines;
    if (p.gross > 0) totals.winningTickets++;
    if (p.credited !== t.credited || p.tax !== t.tax || p.withheld !== t.withheld || t.status === JACKPOT_TICKET_STATUS.open) difference.tickets++;
    difference.credited += p.credited - t.credited;
    difference.tax += p.tax - t.tax;
    difference.withheld += p.withheld - t.withheld;
  });
  const netIncome = stakes - totals.gross;
  const houseContributions = pool.seedTopUp + pool.fromIncentives + plan.houseFunded;
  const fingerprint = fingerprintOf([wanted, results, tickets.length, maxTicketId, stakes, pool, taxBps, maxAddBalance, version, tiers, rewardType]);
  return {
    ...base, kind: wanted, fingerprint, plan, pool, taxBps, maxAddBalance, totals, difference,
    previous: { rollover: before?.plan?.rollover ?? 0, houseFunded: before?.plan?.houseFunded ?? 0 },
    // Net income: stakes less prizes; net profit: the house's result (stakes less the pool's share and
    // what the house put into the pool); expenditure: the prizes (gross, tax and withheld included).
    figures: { netIncome, netProfit: stakes - pool.fromStakes - houseContributions, expenditure: totals.gross },
  };
}

export interface StartedSettlement {
  version: number;
  kind: SettlementKind;
  plan: StoredPlan;
  settlementId: number;
}

/**
 * Confirms a previewed settlement inside the caller's transaction: the issue locked, the plan
 * recomputed and compared with the preview's fingerprint, the record stored, the pool funded (first
 * settlement), the issue marked settling and the job queued.
 */
export async function startSettlement(tx: Executor, ctx: Pick<AppContext, 'jobs'>, issueId: number, fingerprint: string, adminId: number | null): Promise<StartedSettlement> {
  const issue = await loadIssue(tx, issueId, true);
  await takeFeedResults(tx, issue);
  const plan = await planSettlement(tx, issue, { lockBetType: true });
  if (plan.fingerprint !== fingerprint) throw conflict('JACKPOT_PREVIEW_STALE');
  const [row] = await tx
    .insert(jackpotSettlements)
    .values({ issueId, version: plan.version, kind: plan.kind, results: plan.results, plan, adminId, status: 'running' })
    .returning({ id: jackpotSettlements.id });
  if (plan.kind === 'settle' || plan.kind === 'resettle') await fundPool(tx, issue, plan);
  await tx
    .update(jackpotIssues)
    .set({
      settleStatus: JACKPOT_SETTLE_STATUS.settling,
      betStatus: JACKPOT_BET_STATUS.closed,
      ...(plan.pool ? { prizePool: plan.pool.total } : {}),
      updatedAt: new Date(),
    })
    .where(eq(jackpotIssues.id, issueId));
  await ctx.jobs.send(tx, SETTLE_ISSUE_JOB, { issueId, version: plan.version });
  return { version: plan.version, kind: plan.kind, plan, settlementId: row.id };
}

/** The bill type of a settlement's movements: the first settlement's are jackpot payments, a resettlement's differences result changes. */
const billTypeOf = (kind: SettlementKind) => (kind === 'settle' ? BILL_TYPE.jackpot_payment : BILL_TYPE.jackpot_result_change);

const transfer = (txnId: string, from: string, to: string, amount: number, billType: number) => [
  { txn_id: txnId, account: from, amount: -amount, bill_type: billType },
  { txn_id: txnId, account: to, amount, bill_type: billType },
];

/**
 * The pool's money, once per version: the first settlement takes the carried jackpot off the bet type
 * and moves the pool-rate share of the stakes (jackpot_stakes -> jackpot_pool) and the house-funded
 * parts (bonuses -> jackpot_pool: seed top-up, incentives); every version moves the difference of what
 * the fixed prizes cost beyond the pool.
 */
async function fundPool(tx: Executor, issue: IssueRow, plan: StoredPlan) {
  const txnId = newTxnId();
  const entries: HouseEntryRow[] = [];
  const bill = billTypeOf(plan.kind);
  if (plan.kind === 'settle' && plan.pool) {
    const p = plan.pool;
    if (p.carried) await tx.update(jackpotBetTypes).set({ jackpot: sql`${jackpotBetTypes.jackpot} - ${p.carried}` }).where(eq(jackpotBetTypes.id, issue.betTypeId));
    if (p.fromStakes) entries.push(...transfer(txnId, HOUSE.jackpotStakes, HOUSE.jackpotPool, p.fromStakes, bill));
    if (p.seedTopUp + p.fromIncentives) entries.push(...transfer(txnId, HOUSE.bonuses, HOUSE.jackpotPool, p.seedTopUp + p.fromIncentives, bill));
  }
  const funded = (plan.plan?.houseFunded ?? 0) - plan.previous.houseFunded;
  if (funded) entries.push(...transfer(txnId, HOUSE.bonuses, HOUSE.jackpotPool, funded, bill));
  await insertHouseEntries(tx, entries);
}

// ---------------------------------------------------------------------------------------------
// Bills, set-based (as betting settlement's applyPlans): bettors locked in id order and updated once
// with their summed delta, each bill's before / after computed in posting order so the chain holds.

/** A bill of the ledger's batch, planned before the admin is known; `correction`: a negative prize difference, which may leave a debt (booked as amount rolled back). */
type PlannedBill = Omit<BatchBill, 'adminId' | 'debtType'> & { correction: boolean };

async function postBills(tx: Executor, bills: PlannedBill[], transfers: HouseEntryRow[], adminId: number | null) {
  // A prize taken back after it was spent may leave a debt on cash, booked as sports resettlements book it.
  const house = await postBatch(
    tx,
    bills.map((b) => ({
      bettorId: b.bettorId, account: b.account, amount: b.amount, type: b.type, house: b.house, causeId: b.causeId, adminId, remark: b.remark,
      txnId: b.txnId, debtType: b.correction && b.account === ACCOUNT_KIND.cash ? BILL_TYPE.amount_rolled_back : undefined,
    })),
    'jackpot',
  );
  await insertHouseEntries(tx, [...transfers, ...house]);
}

// ---------------------------------------------------------------------------------------------
// The job

interface SettlementRecord {
  id: number;
  issueId: number;
  version: number;
  kind: string;
  status: string;
  adminId: number | null;
  plan: StoredPlan;
  identifier: string;
}

async function loadRecord(ex: Executor, issueId: number, version: number): Promise<SettlementRecord | null> {
  const [s] = await ex
    .select({ s: jackpotSettlements, identifier: jackpotIssues.identifier })
    .from(jackpotSettlements)
    .innerJoin(jackpotIssues, eq(jackpotIssues.id, jackpotSettlements.issueId))
    .where(and(eq(jackpotSettlements.issueId, issueId), eq(jackpotSettlements.version, version)));
  if (!s) return null;
  return { ...s.s, plan: s.s.plan as StoredPlan, identifier: s.identifier };
}

/**
 * One chunk in one transaction: the next tickets (by id, after `after`) not yet at this version,
 * locked, paid (or refunded) by their difference. Answers the last ticket id taken, or null when none
 * was left.
 */
async function payChunk(tx: Executor, rec: SettlementRecord, after: number, size: number): Promise<{ last: number; count: number } | null> {
  const rows = (
    await rowsOf<Record<string, unknown>>(
      tx,
      sql`SELECT ${TICKET_COLUMNS} FROM jackpot_tickets WHERE issue_id = ${rec.issueId} AND id > ${after} AND settled_version < ${rec.version}
          ORDER BY id LIMIT ${size} FOR UPDATE`,
    )
  ).map(ticketOf);
  if (!rows.length) return null;
  const plan = rec.plan;
  const bills: PlannedBill[] = [];
  const transfers: HouseEntryRow[] = [];
  const updates: Record<string, number | null>[] = [];
  const remark = (t: TicketMoneyRow, change: string, part?: 'bonus_funds'): Remark => ({
    kind: part ? 'jackpot_change_part' : 'jackpot_change', params: { issue: rec.identifier, ticket: t.id, change, ...(part ? { part } : {}), version: rec.version },
  });
  if (plan.kind === 'delete' || plan.kind === 'void') {
    for (const t of rows) {
      const txnId = newTxnId();
      if (t.status !== JACKPOT_TICKET_STATUS.refunded) {
        const cash = t.stake - t.bonus_stake;
        const what = plan.kind === 'delete' ? 'issue_deleted' : 'issue_void';
        if (cash > 0) bills.push({ bettorId: t.bettor_id, account: ACCOUNT_KIND.cash, amount: cash, type: BILL_TYPE.amount_rolled_back, house: HOUSE.jackpotStakes, causeId: String(t.id), remark: remark(t, what), txnId, correction: false });
        if (t.bonus_stake > 0) {
          bills.push({ bettorId: t.bettor_id, account: ACCOUNT_KIND.credit, amount: t.bonus_stake, type: CREDIT_BILL_TYPE.credit_refund, house: HOUSE.creditIssued, causeId: String(t.id), remark: remark(t, what, 'bonus_funds'), txnId, correction: false });
        }
      }
      updates.push({ id: t.id, status: JACKPOT_TICKET_STATUS.refunded, best_hits: null, winning_lines: 0, gross: 0, tax: 0, credited: 0, withheld: 0 });
    }
  } else {
    const issuePlan = plan.plan!;
    for (const t of rows) {
      const p = ticketMoney(t, plan.results, issuePlan, plan.taxBps, plan.maxAddBalance);
      const txnId = newTxnId();
      const dCredited = p.credited - t.credited;
      const dTax = p.tax - t.tax;
      const dWithheld = p.withheld - t.withheld;
      const type = billTypeOf(plan.kind);
      if (dCredited !== 0) {
        const what = t.status === JACKPOT_TICKET_STATUS.open ? 'prize' : 'result_change';
        bills.push({ bettorId: t.bettor_id, account: ACCOUNT_KIND.cash, amount: dCredited, type, house: HOUSE.jackpotPool, causeId: String(t.id), remark: remark(t, what), txnId, correction: dCredited < 0 });
      }
      if (dTax) transfers.push(...transfer(txnId, HOUSE.jackpotPool, HOUSE.taxPayable, dTax, type));
      if (dWithheld) transfers.push(...transfer(txnId, HOUSE.jackpotPool, HOUSE.jackpotPrizesPayable, dWithheld, type));
      updates.push({
        id: t.id,
        status: p.gross > 0 ? JACKPOT_TICKET_STATUS.won : JACKPOT_TICKET_STATUS.lost,
        best_hits: p.bestHits, winning_lines: p.winningLines, gross: p.gross, tax: p.tax, credited: p.credited, withheld: p.withheld,
      });
    }
  }
  await tx.execute(sql`
    UPDATE jackpot_tickets t SET status = v.status, best_hits = v.best_hits, winning_lines = v.winning_lines, gross = v.gross, tax = v.tax,
      credited = v.credited, withheld = v.withheld, settled_version = ${rec.version}, settled_at = now()
    FROM ${recordset(updates)} AS v(id bigint, status smallint, best_hits smallint, winning_lines integer, gross bigint, tax bigint, credited bigint, withheld bigint)
    WHERE t.id = v.id AND t.settled_version < ${rec.version}`);
  await postBills(tx, bills, transfers, rec.adminId);
  return { last: rows[rows.length - 1].id, count: rows.length };
}

/**
 * The last step: every ticket at this version, the issue's totals and state, the rollover to the bet
 * type (by the difference with the previous version's), the record done. Idempotent: a done record is
 * left alone.
 */
async function closeSettlement(tx: Executor, rec: SettlementRecord): Promise<void> {
  const [s] = await tx.select({ status: jackpotSettlements.status }).from(jackpotSettlements).where(eq(jackpotSettlements.id, rec.id)).for('update');
  if (!s || s.status === 'done') return;
  const [left] = await rowsOf<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM jackpot_tickets WHERE issue_id = ${rec.issueId} AND settled_version < ${rec.version}`);
  if (Number(left?.n ?? 0) > 0) throw new Error(`jackpot issue ${rec.issueId}: ${left.n} tickets not at version ${rec.version} yet`);
  const plan = rec.plan;
  const issue = await loadIssue(tx, rec.issueId, true);
  const [sums] = await rowsOf<{ won: string; gross: string }>(
    tx,
    sql`SELECT coalesce(sum(winning_lines), 0)::bigint AS won, coalesce(sum(gross), 0)::bigint AS gross FROM jackpot_tickets WHERE issue_id = ${rec.issueId}`,
  );
  const done = { settledVersion: rec.version, updatedAt: new Date() };
  if (plan.kind === 'settle' || plan.kind === 'resettle') {
    const rollover = plan.plan!.rollover - plan.previous.rollover;
    if (rollover) await tx.update(jackpotBetTypes).set({ jackpot: sql`${jackpotBetTypes.jackpot} + ${rollover}`, updatedAt: new Date() }).where(eq(jackpotBetTypes.id, issue.betTypeId));
    await tx
      .update(jackpotIssues)
      .set({
        ...done,
        settleStatus: JACKPOT_SETTLE_STATUS.settled,
        successful: Number(sums.won),
        netIncome: plan.figures.netIncome,
        netProfit: plan.figures.netProfit,
        expenditure: Number(sums.gross),
      })
      .where(eq(jackpotIssues.id, rec.issueId));
  } else {
    await tx
      .update(jackpotIssues)
      .set({
        ...done,
        settleStatus: plan.kind === 'void' ? JACKPOT_SETTLE_STATUS.voided : JACKPOT_SETTLE_STATUS.deleted,
        betStatus: JACKPOT_BET_STATUS.closed,
        successful: 0, netIncome: 0, netProfit: 0, expenditure: 0,
      })
      .where(eq(jackpotIssues.id, rec.issueId));
  }
  await tx.update(jackpotSettlements).set({ status: 'done', finishedAt: new Date() }).where(eq(jackpotSettlements.id, rec.id));
}

export interface PartOptions {
  chunk?: number;
  jobTickets?: number;
}

/**
 * One part of the job `jackpot.settle-issue`: chunks after `after` until JOB_TICKETS tickets are taken
 * (then the next part is queued in the last chunk's transaction) or none is left (then the issue closes).
 */
export async function runSettlementPart(ctx: Pick<AppContext, 'db' | 'jobs'>, data: { issueId: number; version: number; after?: number }, opts: PartOptions = {}): Promise<void> {
  const db: Db = ctx.db;
  const rec = await loadRecord(db, data.issueId, data.version);
  if (!rec || rec.status === 'done') return;
  const chunk = opts.chunk ?? SETTLEMENT_TUNING.chunk;
  const limit = opts.jobTickets ?? SETTLEMENT_TUNING.jobTickets;
  let after = data.after ?? 0;
  let taken = 0;
  for (;;) {
    const r = await db.transaction(async (tx) => {
      const c = await payChunk(tx, rec, after, Math.min(chunk, limit - taken));
      if (!c) return null;
      if (taken + c.count >= limit) await ctx.jobs.send(tx, SETTLE_ISSUE_JOB, { issueId: rec.issueId, version: rec.version, after: c.last });
      return c;
    });
    if (!r) break;
    after = r.last;
    taken += r.count;
    if (taken >= limit) return;
  }
  await db.transaction((tx) => closeSettlement(tx, rec));
}

// ---------------------------------------------------------------------------------------------
// Delete and void

export interface DeleteOutcome {
  /** The delete record (the first call's, for a repeated one). */
  version: number;
  status: string;
  reason: string;
  tickets: number;
  stakes: number;
  /** True when this call started it. */
  started: boolean;
}

/**
 * Deletes an issue (inside the caller's transaction, the issue locked): every ticket's payment reversed
 * by the job. A second call on a deleted issue answers the first call's record and starts nothing.
 */
export async function startDelete(tx: Executor, ctx: Pick<AppContext, 'jobs'>, issueId: number, reason: string, adminId: number | null): Promise<DeleteOutcome> {
  const issue = await loadIssue(tx, issueId, true);
  if (issue.settleStatus === JACKPOT_SETTLE_STATUS.deleted) {
    const last = await lastSettlement(tx, issueId);
    const p = (last?.plan ?? {}) as Partial<StoredPlan>;
    return { version: last?.version ?? issue.settledVersion, status: last?.status ?? 'done', reason: last?.reason ?? issue.deleteReason ?? '', tickets: p.tickets ?? 0, stakes: p.stakes ?? 0, started: false };
  }
  if (issue.settleStatus !== JACKPOT_SETTLE_STATUS.unsettled) throw conflict(issue.settleStatus === JACKPOT_SETTLE_STATUS.settling ? 'CONFLICT' : 'JACKPOT_ALREADY_SETTLED');
  const results = await jackpotResultsOrNulls(tx, issueId);
  const tickets = await rowsOf<{ n: number; stakes: string; bonus: string; lines: string; max: string | null }>(
    tx,
    sql`SELECT count(*)::int AS n, coalesce(sum(stake), 0)::bigint AS stakes, coalesce(sum(bonus_stake), 0)::bigint AS bonus,
               coalesce(sum(lines), 0)::bigint AS lines, max(id) AS max FROM jackpot_tickets WHERE issue_id = ${issueId}`,
  );
  const t = tickets[0];
  const last = await lastSettlement(tx, issueId);
  const version = (last?.version ?? 0) + 1;
  const plan: StoredPlan = {
    kind: 'delete', version, fingerprint: '', results, plan: null, pool: null, tiers: [], rewardType: 1, taxBps: 0, maxAddBalance: 0,
    tickets: Number(t.n), lines: Number(t.lines), stakes: Number(t.stakes), bonusStakes: Number(t.bonus), maxTicketId: Number(t.max ?? 0),
    totals: { gross: 0, tax: 0, credited: 0, withheld: 0, winningLines: 0, winningTickets: 0 },
    difference: { tickets: Number(t.n), credited: 0, tax: 0, withheld: 0, refunds: Number(t.stakes) },
    previous: { rollover: 0, houseFunded: 0 },
    figures: { netIncome: 0, netProfit: 0, expenditure: 0 },
  };
  await tx.insert(jackpotSettlements).values({ issueId, version, kind: 'delete', results, plan, reason, adminId, status: 'running' });
  await tx
    .update(jackpotIssues)
    .set({ settleStatus: JACKPOT_SETTLE_STATUS.deleted, betStatus: JACKPOT_BET_STATUS.closed, deleteReason: reason, updatedAt: new Date() })
    .where(eq(jackpotIssues.id, issueId));
  await ctx.jobs.send(tx, SETTLE_ISSUE_JOB, { issueId, version });
  return { version, status: 'running', reason, tickets: plan.tickets, stakes: plan.stakes, started: true };
}

async function jackpotResultsOrNulls(ex: Executor, issueId: number): Promise<(number | null)[]> {
  const rows = await ex.select({ result: jackpotIssueMatches.result }).from(jackpotIssueMatches).where(eq(jackpotIssueMatches.issueId, issueId)).orderBy(asc(jackpotIssueMatches.position));
  return rows.map((r) => r.result);
}

/** Defines the settlement job (called while the routes are registered, before the queue starts). */
export function defineSettlementJob(ctx: AppContext, opts: PartOptions = {}) {
  ctx.jobs.define<{ issueId: number; version: number; after?: number }>(SETTLE_ISSUE_JOB, (data) => runSettlementPart(ctx, data, opts), { retryLimit: 30 });
}
