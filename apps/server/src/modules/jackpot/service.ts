/**
 * The jackpot's services (issue 12): bet type tiers, issues (identifier, 13 matches, bet status, results
 * from the feed or an operator, pool), ticket quote and placement, shared slips. Routes (./routes.ts),
 * the settlement (./settlement.ts) and the simulator call these; every function works inside the
 * caller's executor (a transaction when it writes).
 *
 * Pool (docs/architecture.md "Jackpot"): carried (the bet type's accumulated `jackpot`) + seed top-up
 * (init_jackpot - carried when the carried amount is below the seed, house-funded) + pool_rate_bps of the
 * issue's stakes (floored to the cent over the issue's total) + incentives per line sold. The house
 * movements that fund it are made by the settlement; `prize_pool` on the issue is kept equal to this
 * sum by every placement and by opening bets.
 */
import { and, asc, eq, inArray, sql, type SQLWrapper } from 'drizzle-orm';
import {
  ACCOUNT_KIND, BET_STATUS, BILL_TYPE, CREDIT_BILL_TYPE, JACKPOT_BET_STATUS, JACKPOT_MATCHES, JACKPOT_RESULT_KIND, JACKPOT_SETTLE_STATUS, JACKPOT_TICKET_STATUS,
  RISK_LEVEL, USER_DISABLED, checkTicket, type JackpotTier, type MessageCode,
} from '@dau/domain';
import type { Executor } from '../../platform/db.js';
import { AppError, notFound } from '../../platform/errors.js';
import { type Bettor, bettors, countBet, HOUSE, newSerial, newTxnId, post } from '../money/index.js';
import { kickOffs, matchesByIds, settled1x2 } from '../feed/index.js';
import { poolParts, type PoolParts } from './pool.js';
import { jackpotBetTypes, jackpotIssueMatches, jackpotIssues, jackpotShares, jackpotTickets, type JackpotTierRow } from './schema.js';

export type BetType = typeof jackpotBetTypes.$inferSelect;
export type Issue = typeof jackpotIssues.$inferSelect;
export type IssueMatch = typeof jackpotIssueMatches.$inferSelect;
export type Ticket = typeof jackpotTickets.$inferSelect;

const refuse = (code: MessageCode, params?: Record<string, string | number>) => new AppError(422, code, params);

// ------------------------------------------------------------------------------------------ bet types

/** The tiers of a bet type in the domain's shape. */
export const tiersOf = (bt: Pick<BetType, 'tiers'>): JackpotTier[] => bt.tiers.map((t) => ({ hits: t.hits, proportionBps: t.proportion_bps }));

/**
 * Checks a tier list (JSON text or value): a non-empty list of {hits, proportion_bps}, hits integers
 * 1..13 all different, bps integers >= 0 adding up to at most 10000. Answers it sorted by hits, most first;
 * throws 422 JACKPOT_TIERS_INVALID.
 */
export function parseTiers(raw: unknown): JackpotTierRow[] {
  let v: unknown = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw);
    } catch {
      throw refuse('JACKPOT_TIERS_INVALID');
    }
  }
  if (!Array.isArray(v) || v.length === 0 || v.length > JACKPOT_MATCHES) throw refuse('JACKPOT_TIERS_INVALID');
  const out: JackpotTierRow[] = [];
  for (const t of v) {
    if (!t || typeof t !== 'object' || Array.isArray(t)) throw refuse('JACKPOT_TIERS_INVALID');
    const keys = Object.keys(t);
    if (keys.some((k) => k !== 'hits' && k !== 'proportion_bps')) throw refuse('JACKPOT_TIERS_INVALID');
    const { hits, proportion_bps: bps } = t as Record<string, unknown>;
    if (!Number.isInteger(hits) || (hits as number) < 1 || (hits as number) > JACKPOT_MATCHES) throw refuse('JACKPOT_TIERS_INVALID');
    if (!Number.isInteger(bps) || (bps as number) < 0 || (bps as number) > 10_000) throw refuse('JACKPOT_TIERS_INVALID');
    out.push({ hits: hits as number, proportion_bps: bps as number });
  }
  if (new Set(out.map((t) => t.hits)).size !== out.length) throw refuse('JACKPOT_TIERS_INVALID');
  if (out.reduce((a, t) => a + t.proportion_bps, 0) > 10_000) throw refuse('JACKPOT_TIERS_INVALID');
  return out.sort((a, b) => b.hits - a.hits);
}

export async function loadBetType(ex: Executor, id: number, lock = false): Promise<BetType> {
  const q = ex.select().from(jackpotBetTypes).where(eq(jackpotBetTypes.id, id));
  const [bt] = lock ? await q.for('update') : await q;
  if (!bt) throw notFound();
  return bt;
}

// ---------------------------------------------------------------------------------------------- issues

export type { PoolParts };

/** The issue's pool (see the file's header) from its totals and its bet type. */
export function poolOf(issue: Pick<Issue, 'totalBet' | 'lines' | 'incentives'>, bt: Pick<BetType, 'jackpot' | 'initJackpot' | 'poolRateBps'>): PoolParts {
  // One computation for the screens, the placement and the settlement.
  return poolParts(bt, issue.incentives, issue.totalBet, issue.lines);
}

export async function loadIssue(ex: Executor, id: number, lock = false): Promise<Issue> {
  const q = ex.select().from(jackpotIssues).where(eq(jackpotIssues.id, id));
  const [issue] = lock ? await q.for('update') : await q;
  if (!issue) throw notFound();
  return issue;
}

export const issueMatches = (ex: Executor, issueId: number): Promise<IssueMatch[]> =>
  ex.select().from(jackpotIssueMatches).where(eq(jackpotIssueMatches.issueId, issueId)).orderBy(asc(jackpotIssueMatches.position));

/**
 * The feed's archive keeps a match live while an issue on it is not settled yet (feed/archive.ts
 * `ArchiveHold`). A settled issue may still be resettled after its matches are archived: its feed results
 * are then read from the archive (match-source `settled1x2`).
 */
export const issuesWaitingOn = (eventId: SQLWrapper) =>
  sql`exists (select 1 from ${jackpotIssueMatches} join ${jackpotIssues} on ${jackpotIssues.id} = ${jackpotIssueMatches.issueId}
    where ${jackpotIssueMatches.eventId} = ${eventId}
      and ${inArray(jackpotIssues.settleStatus, [JACKPOT_SETTLE_STATUS.unsettled, JACKPOT_SETTLE_STATUS.settling])})`;

/** Refuses a change to an issue that is settled, being settled, deleted or voided. */
export function assertUnsettled(issue: Issue) {
  if (issue.settleStatus === JACKPOT_SETTLE_STATUS.deleted || issue.settleStatus === JACKPOT_SETTLE_STATUS.voided) throw refuse('JACKPOT_DELETED');
  if (issue.settleStatus !== JACKPOT_SETTLE_STATUS.unsettled) throw refuse('JACKPOT_ALREADY_SETTLED');
}

export interface CreateIssueInput {
  betTypeId: number;
  identifierPrefix: string;
  startTime: Date;
  categoryId?: number | null;
  leagueId?: string | null;
  betCloseAt?: Date | null;
  createdBy?: number | null;
}

/** A new issue, not open: identifier = prefix + running number of the prefix (3 digits at least). */
export async function createIssue(ex: Executor, input: CreateIssueInput): Promise<Issue> {
  const bt = await loadBetType(ex, input.betTypeId);
  if (!bt.enabled) throw new AppError(400, 'PARAM_INVALID', {}, [{ field: 'bet_type_id', message: 'the bet type is disabled' }]);
  const prefix = input.identifierPrefix;
  const [{ n }] = (await ex
    .select({ n: sql<number>`count(*)::int` })
    .from(jackpotIssues)
    .where(eq(jackpotIssues.identifierPrefix, prefix))) as { n: number }[];
  // Another request may take the next number meanwhile: the unique identifier makes this one try the following.
  for (let next = Number(n) + 1; ; next++) {
    const [row] = await ex
      .insert(jackpotIssues)
      .values({
        betTypeId: bt.id,
        identifierPrefix: prefix,
        identifier: `${prefix}${String(next).padStart(3, '0')}`,
        startTime: input.startTime,
        categoryId: input.categoryId ?? null,
        leagueId: input.leagueId ?? null,
        maxChoose: bt.guessNumber,
        incentives: bt.incentives,
        betCloseAt: input.betCloseAt ?? null,
        prizePool: poolOf({ totalBet: 0, lines: 0, incentives: bt.incentives }, bt).total,
        createdBy: input.createdBy ?? null,
      })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
    if (next > Number(n) + 1000) throw new AppError(409, 'CONFLICT');
  }
}

/**
 * Sets the 13 matches of an issue (in the given order) from the feed: each a football match not started
 * yet; refused once tickets exist. Bets close at the first kick-off unless an earlier close time was set.
 */
export async function setIssueMatches(ex: Executor, issueId: number, eventIds: readonly string[]): Promise<IssueMatch[]> {
  const issue = await loadIssue(ex, issueId, true);
  assertUnsettled(issue);
  if (issue.tickets > 0) throw refuse('JACKPOT_HAS_TICKETS');
  if (eventIds.length !== JACKPOT_MATCHES || new Set(eventIds).size !== JACKPOT_MATCHES) throw refuse('JACKPOT_MATCHES_REQUIRED');
  const found = await matchesByIds(ex, eventIds);
  const now = Date.now();
  const bad = eventIds.filter((id) => {
    const m = found.get(id);
    return !m || m.startTime.getTime() <= now || m.eventStatus !== 1 || !m.open;
  });
  if (bad.length) throw new AppError(422, 'BET_MATCH_CLOSED', { eventId: bad[0]! }, [{ field: 'event_ids', message: `not an upcoming open match: ${bad.join(', ')}` }]);
  const results = await settled1x2(ex, eventIds);
  await ex.delete(jackpotIssueMatches).where(eq(jackpotIssueMatches.issueId, issueId));
  const rows = eventIds.map((id, i) => {
    const m = found.get(id)!;
    const feed = results.get(id) ?? null;
    return {
      issueId, position: i + 1, eventId: id, homeTeam: m.homeTeam, awayTeam: m.awayTeam, leagueName: m.leagueName, startTime: m.startTime,
      result: feed, feedResult: feed, resultSource: feed === null ? null : 'feed',
    };
  });
  await ex.insert(jackpotIssueMatches).values(rows);
  const firstKickOff = new Date(Math.min(...rows.map((r) => r.startTime.getTime())));
  const closeAt = issue.betCloseAt && issue.betCloseAt < firstKickOff ? issue.betCloseAt : firstKickOff;
  await ex.update(jackpotIssues).set({ betCloseAt: closeAt, updatedAt: new Date() }).where(eq(jackpotIssues.id, issueId));
  return issueMatches(ex, issueId);
}

/** Opens betting: 13 matches, unsettled, before bets close. The pool is shown from now on. */
export async function openBets(ex: Executor, issueId: number): Promise<Issue> {
  const issue = await loadIssue(ex, issueId, true);
  assertUnsettled(issue);
  const matches = await issueMatches(ex, issueId);
  if (matches.length !== JACKPOT_MATCHES) throw refuse('JACKPOT_MATCHES_REQUIRED');
  if (!issue.betCloseAt || issue.betCloseAt.getTime() <= Date.now()) throw refuse('JACKPOT_BETS_CLOSED');
  const bt = await loadBetType(ex, issue.betTypeId);
  const [row] = await ex
    .update(jackpotIssues)
    .set({ betStatus: JACKPOT_BET_STATUS.open, prizePool: poolOf(issue, bt).total, updatedAt: new Date() })
    .where(eq(jackpotIssues.id, issueId))
    .returning();
  return row!;
}

/**
 * Changes the betting state: open (re-open after a suspension; needs 13 matches and bets not closed),
 * suspended, closed. 'not open' is only the state of a new issue.
 */
export async function setBetStatus(ex: Executor, issueId: number, status: number): Promise<Issue> {
  if (status === JACKPOT_BET_STATUS.open) return openBets(ex, issueId);
  if (status !== JACKPOT_BET_STATUS.suspended && status !== JACKPOT_BET_STATUS.closed) throw new AppError(400, 'PARAM_INVALID', {}, [{ field: 'bet_status' }]);
  const issue = await loadIssue(ex, issueId, true);
  assertUnsettled(issue);
  if (status === JACKPOT_BET_STATUS.suspended && issue.betStatus !== JACKPOT_BET_STATUS.open) throw refuse('JACKPOT_NOT_OPEN');
  const [row] = await ex.update(jackpotIssues).set({ betStatus: status, updatedAt: new Date() }).where(eq(jackpotIssues.id, issueId)).returning();
  return row!;
}

/**
 * Takes the feed's settled 1X2 results into the issue's matches: `feed_result` always, `result` where
 * no operator set one. Answers the matches. Nothing happens to a deleted or voided issue.
 */
export async function refreshFeedResults(ex: Executor, issueId: number): Promise<IssueMatch[]> {
  const matches = await issueMatches(ex, issueId);
  if (!matches.length) return matches;
  const results = await settled1x2(ex, matches.map((m) => m.eventId));
  let changed = false;
  for (const m of matches) {
    const feed = results.get(m.eventId) ?? null;
    const byOperator = m.resultSource === 'operator';
    const result = byOperator ? m.result : feed;
    if (feed === m.feedResult && result === m.result) continue;
    changed = true;
    await ex
      .update(jackpotIssueMatches)
      .set({ feedResult: feed, result, resultSource: byOperator ? 'operator' : feed === null ? null : 'feed' })
      .where(and(eq(jackpotIssueMatches.issueId, issueId), eq(jackpotIssueMatches.position, m.position)));
  }
  return changed ? issueMatches(ex, issueId) : matches;
}

export interface KickOff {
  /** The kick-off: the feed's (a postponed match has its new time), else the one stored with the issue. */
  at: Date;
  /** Kicked off: the time has passed, or the feed says the match is under way, ended, abandoned... */
  started: boolean;
}

/** Per position, whether each match of the issue has kicked off (issue 23: no result before it has). */
export async function kickOffOf(ex: Executor, matches: readonly IssueMatch[], now = new Date()): Promise<Map<number, KickOff>> {
  const feed = await kickOffs(ex, matches.map((m) => m.eventId), now);
  return new Map(
    matches.map((m) => {
      const f = feed.get(m.eventId);
      return [m.position, f ? { at: f.startTime, started: f.started } : { at: m.startTime, started: m.startTime.getTime() <= now.getTime() }];
    }),
  );
}

/**
 * Refuses (422 JACKPOT_MATCH_NOT_STARTED, naming the first) a home, draw or away result on a match that has
 * not kicked off; `cancelled` (3) may be set before, as may no result.
 */
export async function assertKickedOff(ex: Executor, matches: readonly IssueMatch[], results: ReadonlyMap<number, number | null>): Promise<void> {
  const played = matches.filter((m) => {
    const r = results.get(m.position);
    return r !== undefined && r !== null && r !== JACKPOT_RESULT_KIND.cancelled;
  });
  if (!played.length) return;
  const state = await kickOffOf(ex, played);
  const early = played.find((m) => !state.get(m.position)!.started);
  if (early) throw refuse('JACKPOT_MATCH_NOT_STARTED', { position: early.position, match: `${early.homeTeam} - ${early.awayTeam}` });
}

export interface ResultChange {
  position: number;
  /** 0 home, 1 draw, 2 away, 3 cancelled; null = back to the feed's result. */
  result: number | null;
  reason?: string;
}

/**
 * Sets results of an issue's matches. A result other than the feed's (or one while the feed has none)
 * is an operator override and needs a reason (JACKPOT_REASON_REQUIRED); null goes back to the feed's.
 * A match that has not kicked off gets no home, draw or away result (JACKPOT_MATCH_NOT_STARTED), only
 * cancelled.
 * Answers what changed ({position, before, after}) for the audit row the caller writes in the same
 * transaction. A settled issue may change (the settlement then resettles the difference).
 */
export async function changeResults(ex: Executor, issueId: number, changes: readonly ResultChange[]) {
  const issue = await loadIssue(ex, issueId, true);
  if (issue.settleStatus === JACKPOT_SETTLE_STATUS.deleted || issue.settleStatus === JACKPOT_SETTLE_STATUS.voided) throw refuse('JACKPOT_DELETED');
  if (issue.settleStatus === JACKPOT_SETTLE_STATUS.settling) throw refuse('JACKPOT_ALREADY_SETTLED');
  if (new Set(changes.map((c) => c.position)).size !== changes.length) throw new AppError(400, 'PARAM_INVALID', {}, [{ field: 'results', message: 'a position twice' }]);
  const matches = await refreshFeedResults(ex, issueId);
  if (matches.length !== JACKPOT_MATCHES) throw refuse('JACKPOT_MATCHES_REQUIRED');
  await assertKickedOff(ex, matches, new Map(changes.map((c) => [c.position, c.result])));
  const done: { position: number; event_id: string; before: number | null; after: number | null; source: string | null; reason: string | null }[] = [];
  for (const c of changes) {
    const m = matches[c.position - 1]!;
    const override = c.result !== null && c.result !== m.feedResult;
    const reason = c.reason?.trim() ?? '';
    if (override && !reason) throw refuse('JACKPOT_REASON_REQUIRED');
    const result = c.result === null ? m.feedResult : c.result;
    const source = override ? 'operator' : result === null ? null : 'feed';
    const overrideReason = override ? reason : null;
    if (result === m.result && source === m.resultSource && overrideReason === m.overrideReason) continue;
    await ex
      .update(jackpotIssueMatches)
      .set({ result, resultSource: source, overrideReason })
      .where(and(eq(jackpotIssueMatches.issueId, issueId), eq(jackpotIssueMatches.position, c.position)));
    done.push({ position: c.position, event_id: m.eventId, before: m.result, after: result, source, reason: overrideReason });
  }
  if (done.length) await ex.update(jackpotIssues).set({ updatedAt: new Date() }).where(eq(jackpotIssues.id, issueId));
  return { changes: done, matches: done.length ? await issueMatches(ex, issueId) : matches };
}

// --------------------------------------------------------------------------------------------- tickets

export interface TicketInput {
  issueId: number;
  bettorId: number;
  picks: readonly number[];
  useBonus?: boolean;
}

export type Quote =
  | { ok: true; lines: number; unit: number; stake: number; doubles: number; triples: number; picked: number; bonusStake: number }
  | { ok: false; code: MessageCode; match: number | null; params?: Record<string, string | number>; status: number };

/** The 13 masks as given, missing ones as 0 ("Please select a result"). */
const padded = (picks: readonly number[]) => Array.from({ length: JACKPOT_MATCHES }, (_, i) => picks[i] ?? 0);

/**
 * What placing the ticket would do, with every check of the placement (the same function decides both):
 * the issue takes bets (settle state, bet status, close time), the picks pass the bet type's rules, the
 * bettor may bet and has the money. `lockedBettor`: the bettor row as the caller locked it.
 */
export async function quoteTicket(ex: Executor, input: TicketInput, opts: { issue?: Issue; bettor?: Bettor; now?: Date } = {}): Promise<Quote> {
  const no = (code: MessageCode, match: number | null = null, status = 422, params?: Record<string, string | number>): Quote => ({ ok: false, code, match, status, params });
  const issue = opts.issue ?? (await loadIssue(ex, input.issueId));
  if (issue.settleStatus === JACKPOT_SETTLE_STATUS.deleted || issue.settleStatus === JACKPOT_SETTLE_STATUS.voided) return no('JACKPOT_DELETED');
  if (issue.settleStatus !== JACKPOT_SETTLE_STATUS.unsettled) return no('JACKPOT_ALREADY_SETTLED');
  const now = opts.now ?? new Date();
  if (issue.betStatus === JACKPOT_BET_STATUS.closed || (issue.betCloseAt && issue.betCloseAt.getTime() <= now.getTime())) return no('JACKPOT_BETS_CLOSED');
  if (issue.betStatus !== JACKPOT_BET_STATUS.open || !issue.betCloseAt) return no('JACKPOT_NOT_OPEN');
  const bt = await loadBetType(ex, issue.betTypeId);
  const check = checkTicket(padded(input.picks), { maxDoubles: bt.maxDoubles, maxTriples: bt.maxTriples, guessNumber: issue.maxChoose });
  if (!check.ok) return no(check.code, check.match === undefined ? null : check.match + 1);
  const stake = check.lines * bt.betAmount;
  const bettor = opts.bettor ?? (await ex.select().from(bettors).where(eq(bettors.id, input.bettorId)))[0];
  if (!bettor) return no('NOT_FOUND', null, 404);
  if (bettor.disabled === USER_DISABLED.disabled || bettor.betStatus !== BET_STATUS.allowed) return no('BET_USER_BLOCKED');
  if (bettor.riskLevel === RISK_LEVEL.no_betting) return no('BET_RISK_BLOCKED');
  if (input.useBonus && !bt.allowBonus) return no('BET_BONUS_FUNDS_LIMIT');
  // Bonus funds (when allowed and asked for) pay what they can; the cash balance the rest.
  const bonusStake = input.useBonus ? Math.min(Math.max(0, bettor.creditBalance), stake) : 0;
  if (bettor.cashBalance < stake - bonusStake) return no('BET_BALANCE_LOW');
  return { ok: true, lines: check.lines, unit: bt.betAmount, stake, doubles: check.doubles, triples: check.triples, picked: check.picked, bonusStake };
}

export interface PlaceOptions {
  /** The admin placing it for the bettor (null: the bettor). */
  placedBy?: number | null;
  /** The Idempotency-Key of the request, recorded on the ticket (unique per bettor). */
  idempotencyKey?: string | null;
  /** The ticket this one copies (shared slip). */
  sharedFrom?: number | null;
  now?: Date;
}

/**
 * Places a ticket inside the caller's transaction: the issue row locked (placements of an issue are
 * serialised: its totals and pool), the bettor locked, the quote's checks, the ticket, the stake debit
 * (cash: bill type 3 jackpot payment; bonus funds: credit bill type 3, only if the bet type allows them)
 * against the jackpot stakes house account, the issue's totals and pool. Throws AppError with the
 * refusal's code.
 */
export async function placeTicket(ex: Executor, input: TicketInput, opts: PlaceOptions = {}): Promise<Ticket> {
  if (opts.idempotencyKey) {
    const [prev] = await ex
      .select()
      .from(jackpotTickets)
      .where(and(eq(jackpotTickets.bettorId, input.bettorId), eq(jackpotTickets.idempotencyKey, opts.idempotencyKey)));
    if (prev) return prev;
  }
  const issue = await loadIssue(ex, input.issueId, true);
  const [bettor] = await ex.select().from(bettors).where(eq(bettors.id, input.bettorId)).for('update');
  if (!bettor) throw notFound();
  const q = await quoteTicket(ex, input, { issue, bettor, now: opts.now });
  if (!q.ok) throw new AppError(q.status, q.code, { ...(q.params ?? {}), ...(q.match !== null ? { match: q.match } : {}) }, q.match !== null ? { match: q.match } : undefined);
  const picks = padded(input.picks);
  const [ticket] = await ex
    .insert(jackpotTickets)
    .values({
      serialNumber: newSerial('J'),
      issueId: issue.id,
      bettorId: bettor.id,
      agentId: bettor.agentId,
      picks,
      lines: q.lines,
      unit: q.unit,
      stake: q.stake,
      bonusStake: q.bonusStake,
      status: JACKPOT_TICKET_STATUS.open,
      placedBy: opts.placedBy ?? null,
      sharedFrom: opts.sharedFrom ?? null,
      idempotencyKey: opts.idempotencyKey ?? null,
    })
    .returning();
  const txnId = newTxnId();
  const cause = { type: 'jackpot' as const, id: ticket!.id };
  const remark = { kind: 'jackpot_stake', params: { issue: issue.identifier, ticket: ticket!.serialNumber } } as const;
  const cash = q.stake - q.bonusStake;
  if (cash > 0) {
    await post(ex, { bettorId: bettor.id, account: ACCOUNT_KIND.cash, amount: -cash, type: BILL_TYPE.jackpot_payment, cause, house: HOUSE.jackpotStakes, adminId: opts.placedBy, remark, txnId });
  }
  if (q.bonusStake > 0) {
    await post(ex, { bettorId: bettor.id, account: ACCOUNT_KIND.credit, amount: -q.bonusStake, type: CREDIT_BILL_TYPE.jackpot_payment, cause, house: HOUSE.creditIssued, adminId: opts.placedBy, remark, txnId });
  }
  await countBet(ex, bettor.id, q.stake);
  const bt = await loadBetType(ex, issue.betTypeId);
  const totals = { totalBet: issue.totalBet + q.stake, lines: issue.lines + q.lines, incentives: issue.incentives };
  await ex
    .update(jackpotIssues)
    .set({ totalBet: totals.totalBet, lines: totals.lines, tickets: issue.tickets + 1, prizePool: poolOf(totals, bt).total, updatedAt: new Date() })
    .where(eq(jackpotIssues.id, issue.id));
  return ticket!;
}

// ---------------------------------------------------------------------------------------------- shares

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
function shareCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('');
}

/** Shares a ticket: its code (the same code when shared again). */
export async function shareTicket(ex: Executor, ticketId: number): Promise<typeof jackpotShares.$inferSelect> {
  const [ticket] = await ex.select().from(jackpotTickets).where(eq(jackpotTickets.id, ticketId));
  if (!ticket) throw notFound();
  for (let i = 0; i < 5; i++) {
    const [row] = await ex
      .insert(jackpotShares)
      .values({ code: shareCode(), ticketId, bettorId: ticket.bettorId, agentId: ticket.agentId })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
    const [existing] = await ex.select().from(jackpotShares).where(eq(jackpotShares.ticketId, ticketId));
    if (existing) return existing;
  }
  throw new AppError(409, 'CONFLICT');
}

/** Places a copy of a shared slip for a bettor (same issue and picks) and counts it on the share. */
export async function copyShare(ex: Executor, code: string, bettorId: number, opts: Omit<PlaceOptions, 'sharedFrom'> = {}): Promise<Ticket> {
  const [share] = await ex.select().from(jackpotShares).where(eq(jackpotShares.code, code)).for('update');
  if (!share) throw new AppError(404, 'JACKPOT_SHARE_NOT_FOUND');
  const [source] = await ex.select().from(jackpotTickets).where(eq(jackpotTickets.id, share.ticketId));
  if (!source) throw new AppError(404, 'JACKPOT_SHARE_NOT_FOUND');
  const ticket = await placeTicket(ex, { issueId: source.issueId, bettorId, picks: source.picks }, { ...opts, sharedFrom: source.id });
  await ex
    .update(jackpotShares)
    .set({ copies: sql`${jackpotShares.copies} + 1`, copyStake: sql`${jackpotShares.copyStake} + ${ticket.stake}` })
    .where(eq(jackpotShares.code, code));
  return ticket;
}

/** Issues by id (ticket and share rows show the identifier). */
export async function identifiersOf(ex: Executor, issueIds: readonly number[]): Promise<Map<number, string>> {
  if (!issueIds.length) return new Map();
  const rows = await ex.select({ id: jackpotIssues.id, identifier: jackpotIssues.identifier }).from(jackpotIssues).where(inArray(jackpotIssues.id, [...new Set(issueIds)]));
  return new Map(rows.map((r) => [r.id, r.identifier]));
}
