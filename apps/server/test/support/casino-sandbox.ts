/**
 * Checks of the sandbox game provider's rounds against the wallet (casino-sandbox.test.ts,
 * casino-crash.test.ts): the provider's own book (casino_sandbox_outbox: what it meant to do) against the
 * operator's rounds, wallet transactions and bills. Answers the problems found (an empty list is clean)
 * and what the run contained, so that a test can also prove every failure kind happened.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../src/platform/db.js';

const rowsOf = async <T>(ex: Executor, q: SQL): Promise<T[]> => ((await ex.execute(q)) as unknown as { rows: T[] }).rows;

interface OutboxRow {
  round_ref: string;
  seq: number;
  call: string;
  transaction_uuid: string | null;
  body: string;
  failure: string;
  state: number;
  attempts: number;
  last_error: string | null;
  answer_status: string | null;
  answer_balance: string | null;
  duplicate_status: string | null;
  duplicate_balance: string | null;
}

export interface SandboxRunReport {
  problems: string[];
  rounds: number;
  byScript: Record<string, number>;
  /** Calls sent again after their answer, and those whose answer was the first one. */
  duplicates: number;
  /** Calls answered only after at least one attempt without an answer (dropped, timed out, refused connection). */
  retried: number;
  /** Calls whose answer was thrown away on purpose at least once. */
  dropped: number;
  /** Σ of the sandbox's bets taken and wins paid. */
  betTotal: number;
  winTotal: number;
}

/** Every round of the sandbox provider's book settled exactly once at the wallet (call after the outbox drained). */
export async function checkSandboxRounds(ex: Executor, providerCode = 'sandbox'): Promise<SandboxRunReport> {
  const problems: string[] = [];
  const [provider] = await rowsOf<{ id: number }>(ex, sql`SELECT id FROM casino_providers WHERE code = ${providerCode}`);
  if (!provider) return { problems: [`no provider ${providerCode}`], rounds: 0, byScript: {}, duplicates: 0, retried: 0, dropped: 0, betTotal: 0, winTotal: 0 };
  const rows = await rowsOf<OutboxRow>(
    ex,
    sql`SELECT round_ref, seq, call, transaction_uuid, body, failure, state, attempts, last_error, answer_status, answer_balance::text, duplicate_status, duplicate_balance::text
        FROM casino_sandbox_outbox WHERE provider_code = ${providerCode} ORDER BY round_ref, seq`,
  );
  const byRound = new Map<string, OutboxRow[]>();
  for (const r of rows) byRound.set(r.round_ref, [...(byRound.get(r.round_ref) ?? []), r]);
  const byScript: Record<string, number> = {};
  let duplicates = 0;
  let retried = 0;
  let dropped = 0;
  let betTotal = 0;
  let winTotal = 0;

  const rounds = await rowsOf<{ id: string; round_ref: string; status: number; bet_total: string; win_total: string }>(
    ex,
    sql`SELECT id::text, round_ref, status, bet_total::text, win_total::text FROM casino_rounds WHERE provider_id = ${provider.id}`,
  );
  const roundOf = new Map(rounds.map((r) => [r.round_ref, r]));
  const txns = await rowsOf<{ transaction_uuid: string; round_id: string | null; kind: string; amount: string; bill_id: string | null; tombstone: boolean; status: string }>(
    ex,
    sql`SELECT transaction_uuid, round_id::text, kind, amount::text, bill_id::text, tombstone, status FROM casino_transactions WHERE provider_id = ${provider.id}`,
  );
  const txnOf = new Map(txns.map((t) => [t.transaction_uuid, t]));
  const bills = await rowsOf<{ id: string; cause_id: string; amount: string; type: number }>(
    ex,
    sql`SELECT id::text, cause_id, amount::text, type FROM bills WHERE cause_type = 'casino'`,
  );
  const billsOf = new Map<string, typeof bills>();
  for (const b of bills) billsOf.set(b.cause_id, [...(billsOf.get(b.cause_id) ?? []), b]);

  for (const [ref, calls] of byRound) {
    const script = ['rollback', 'late_win', 'out_of_order'].find((s) => calls[0]!.failure.split(',').includes(s)) ?? 'normal';
    byScript[script] = (byScript[script] ?? 0) + 1;
    const say = (what: string) => problems.push(`round ${ref} (${calls[0]!.failure || 'normal'}): ${what}`);
    for (const c of calls) {
      if (c.state === 1) say(`${c.call} still pending (${c.attempts} attempts, ${c.last_error})`);
      if (c.attempts > 1 && c.state === 2) retried++;
      if (c.last_error?.includes('dropped')) dropped++;
      if (c.duplicate_status !== null) {
        duplicates++;
        // A transaction the wallet took answers its stored answer: status and the balance after it. A
        // round/end (no transaction id) or a refused call moved nothing: the same status, today's balance.
        const stored = c.transaction_uuid !== null && c.answer_status === 'RS_OK';
        if (c.duplicate_status !== c.answer_status || (stored && c.duplicate_balance !== c.answer_balance)) {
          say(`the duplicate of ${c.call} answered ${c.duplicate_status}/${c.duplicate_balance}, the first ${c.answer_status}/${c.answer_balance}`);
        }
      }
      const expected = script === 'out_of_order' && c.call === 'transaction/bet' ? 'RS_ERROR_TRANSACTION_ROLLED_BACK' : 'RS_OK';
      if (c.state === 2 && c.answer_status !== expected) say(`${c.call} answered ${c.answer_status}, expected ${expected}`);
      if (c.state === 3) say(`${c.call} skipped`);
    }
    const bet = calls.find((c) => c.call === 'transaction/bet')!;
    const stake = Number(JSON.parse(bet.body).amount);
    const wins = calls.filter((c) => c.call === 'transaction/win' && c.state === 2).reduce((s, c) => s + Number(JSON.parse(c.body).amount), 0);
    const round = roundOf.get(ref);
    // Every money call of the round is exactly one wallet transaction (the unique key makes it at most one).
    for (const c of calls) {
      if (!c.transaction_uuid) continue;
      const t = txnOf.get(c.transaction_uuid);
      if (!t) say(`${c.call} ${c.transaction_uuid} has no wallet transaction`);
    }
    if (script === 'out_of_order') {
      const t = txnOf.get(bet.transaction_uuid!);
      if (!t?.tombstone) say('the bet that came after its rollback is not a tombstone');
      if (round && (Number(round.bet_total) !== 0 || Number(round.win_total) !== 0)) say(`a refused bet left a round with money ${round.bet_total}/${round.win_total}`);
      if (round && round.status === 1) say('left open');
      continue;
    }
    if (!round) {
      say('no round at the wallet');
      continue;
    }
    const wantStatus = script === 'rollback' ? 3 : 2;
    const wantBet = script === 'rollback' ? 0 : stake;
    const wantWin = script === 'rollback' ? 0 : wins;
    if (round.status !== wantStatus) say(`status ${round.status}, expected ${wantStatus}`);
    if (Number(round.bet_total) !== wantBet) say(`bet total ${round.bet_total}, expected ${wantBet}`);
    if (Number(round.win_total) !== wantWin) say(`win total ${round.win_total}, expected ${wantWin}`);
    betTotal += wantBet;
    winTotal += wantWin;
    // The round's totals are its transactions', and its bills are its transactions' bills, once each.
    const mine = txns.filter((t) => t.round_id === round.id);
    const sum = (kind: string) => mine.filter((t) => t.kind === kind && t.status === 'RS_OK').reduce((s, t) => s + Number(t.amount), 0);
    if (sum('bet') - sum('rollback') !== Number(round.bet_total)) say(`transactions bet ${sum('bet')} - rollback ${sum('rollback')} != bet total ${round.bet_total}`);
    if (sum('win') !== Number(round.win_total)) say(`transactions win ${sum('win')} != win total ${round.win_total}`);
    const roundBills = billsOf.get(round.id) ?? [];
    const billIds = mine.map((t) => t.bill_id).filter((b): b is string => b !== null);
    if (new Set(billIds).size !== billIds.length) say('a bill is shared by two transactions');
    if (roundBills.length !== billIds.length || !roundBills.every((b) => billIds.includes(b.id))) say(`bills ${roundBills.map((b) => b.id)} != transactions' bills ${billIds}`);
    const billSum = roundBills.reduce((s, b) => s + Number(b.amount), 0);
    if (billSum !== Number(round.win_total) - Number(round.bet_total)) say(`bills add up to ${billSum}, the round moved ${Number(round.win_total) - Number(round.bet_total)}`);
  }
  // No wallet round that the provider never played.
  for (const r of rounds) if (!byRound.has(r.round_ref)) problems.push(`wallet round ${r.round_ref} is not in the provider's book`);
  return { problems, rounds: byRound.size, byScript, duplicates, retried, dropped, betTotal, winTotal };
}
