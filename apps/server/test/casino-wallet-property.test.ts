/**
 * The wallet API under random interleavings (issue 13): fast-check draws sequences of bets, wins,
 * rollbacks, round ends and verbatim repeats for three bettors over a small pool of transaction uuids
 * and rounds (so duplicates, rollbacks of unknown bets, late bets, wins for rolled-back bets and
 * rollbacks after wins all happen). Run one call at a time, every answer (status and balance) equals a
 * reference model of the design's rules; run in concurrent batches, nothing is created or lost: each
 * bettor's balance is the sum of their bills, the bettors' balances plus the casino and bonus house
 * accounts are unchanged, and the ledger invariants are clean. PGlite and, with TEST_DATABASE_URL,
 * PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { eq, inArray, sql } from 'drizzle-orm';
import { bettors, bills } from '../src/schema.js';
import { HOUSE, checkInvariants } from '../src/modules/money/ledger';
import { casinoGames } from '../src/modules/casino/schema';
import { createTestApp, makeWorld, type TestApp } from './helpers';
import { makeBettor } from './money-helpers';
import { WalletClient, houseBalance, sandboxClient, sandboxGame, session } from './casino-wallet-support';

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let c: WalletClient;
let game: typeof casinoGames.$inferSelect;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  c = await sandboxClient(t);
  game = await sandboxGame(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const AMOUNTS = [1_00, 5_00, 20_00, 60_00];
type Op =
  | { k: 'bet'; b: number; uuid: number; round: number; amount: number }
  | { k: 'win'; b: number; uuid: number; round: number; ref: number; amount: number; free: boolean }
  | { k: 'rollback'; b: number; uuid: number; ref: number }
  | { k: 'end'; b: number; round: number }
  | { k: 'repeat'; back: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ k: fc.constant('bet' as const), b: fc.nat(2), uuid: fc.nat(7), round: fc.nat(3), amount: fc.constantFrom(...AMOUNTS) }) },
  {
    weight: 3,
    arbitrary: fc.record({ k: fc.constant('win' as const), b: fc.nat(2), uuid: fc.nat(5), round: fc.nat(3), ref: fc.nat(7), amount: fc.constantFrom(0, ...AMOUNTS), free: fc.boolean() }),
  },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('rollback' as const), b: fc.nat(2), uuid: fc.nat(5), ref: fc.nat(7) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('end' as const), b: fc.nat(2), round: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('repeat' as const), back: fc.nat(10) }) },
);

interface Ctx {
  run: string;
  players: { id: number; user: string; token: string }[];
}

/** The call an op makes (repeats resolved by the caller). */
function request(x: Ctx, op: Exclude<Op, { k: 'repeat' }>): [string, Record<string, unknown>] {
  const p = x.players[op.b]!;
  const base = { request_uuid: `${x.run}-rq`, token: p.token, user: p.user, game_code: game.gameCode };
  const id = (prefix: string, n: number) => `${x.run}-${prefix}${n}`;
  switch (op.k) {
    case 'bet':
      return ['transaction/bet', { ...base, round: id('R', op.round), transaction_uuid: id('b', op.uuid), currency: 'TZS', amount: op.amount }];
    case 'win':
      return [
        'transaction/win',
        { ...base, round: id('R', op.round), transaction_uuid: id('w', op.uuid), reference_transaction_uuid: id('b', op.ref), currency: 'TZS', amount: op.amount, ...(op.free ? { is_free: true } : {}) },
      ];
    case 'rollback':
      return ['transaction/rollback', { ...base, round: 'any', transaction_uuid: id('r', op.uuid), reference_transaction_uuid: id('b', op.ref) }];
    case 'end':
      return ['round/end', { ...base, round: id('R', op.round) }];
  }
}

/** The design's rules over plain data: the answer each call must get, one call at a time. */
class Model {
  balance: number[];
  processed = new Map<string, { content: string; status: string; balance: number }>();
  bets = new Map<string, { b: number; round: string; amount: number; rolled: boolean }>();
  tombstones = new Set<string>();
  rounds = new Map<string, { b: number; won: boolean }>();
  constructor(initial: number[]) {
    this.balance = [...initial];
  }

  apply(path: string, body: Record<string, unknown>, b: number): { status: string; balance: number } {
    const uuid = body.transaction_uuid as string | undefined;
    const content = JSON.stringify([path, body.user, body.game_code, body.round, body.amount, body.currency, body.reference_transaction_uuid ?? null, body.is_free === true]);
    const answer = (status: string) => ({ status, balance: this.balance[b]! });
    if (path === 'round/end') return answer('RS_OK');
    if (uuid) {
      const seen = this.processed.get(uuid);
      if (seen) return seen.content === content ? { status: seen.status, balance: seen.balance } : answer('RS_ERROR_DUPLICATE_TRANSACTION');
      if (this.tombstones.has(uuid)) return answer(path === 'transaction/bet' ? 'RS_ERROR_TRANSACTION_ROLLED_BACK' : 'RS_ERROR_DUPLICATE_TRANSACTION');
    }
    const ok = () => {
      const a = answer('RS_OK');
      this.processed.set(uuid!, { content, ...a });
      return a;
    };
    const round = body.round as string;
    const amount = body.amount as number;
    if (path === 'transaction/bet') {
      const r = this.rounds.get(round);
      if (r && r.b !== b) return answer('RS_ERROR_UNKNOWN');
      if (amount > this.balance[b]!) return answer('RS_ERROR_NOT_ENOUGH_MONEY');
      this.balance[b]! -= amount;
      if (!r) this.rounds.set(round, { b, won: false });
      this.bets.set(uuid!, { b, round, amount, rolled: false });
      return ok();
    }
    const ref = body.reference_transaction_uuid as string;
    const bet = this.bets.get(ref);
    if (path === 'transaction/win') {
      if (!bet || bet.round !== round || bet.b !== b) return answer(this.tombstones.has(ref) ? 'RS_ERROR_TRANSACTION_ROLLED_BACK' : 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
      if (bet.rolled) return answer('RS_ERROR_TRANSACTION_ROLLED_BACK');
      this.balance[b]! += amount;
      this.rounds.get(round)!.won = true;
      return ok();
    }
    // rollback
    if (this.tombstones.has(ref)) return ok();
    if (!bet) {
      if (this.processed.has(ref)) return answer('RS_ERROR_TRANSACTION_DOES_NOT_EXIST'); // a win's or rollback's uuid
      this.tombstones.add(ref);
      return ok();
    }
    if (bet.b !== b) return answer('RS_ERROR_TRANSACTION_DOES_NOT_EXIST');
    if (bet.rolled) return ok();
    if (this.rounds.get(bet.round)!.won) return answer('RS_ERROR_ROLLBACK_AFTER_WIN');
    bet.rolled = true;
    this.balance[b]! += bet.amount;
    return ok();
  }
}

let runs = 0;
async function setUp(): Promise<Ctx & { ids: number[]; initial: number[] }> {
  const run = `p${++runs}-${Date.now().toString(36)}`;
  const initial = [100_00, 30_00, 5_00];
  const players = [];
  for (const cash of initial) {
    const b = await makeBettor(t, w.agentA, { cash });
    const s = await session(t, b.id, game.id);
    players.push({ id: b.id, user: String(b.id), token: s.token });
  }
  return { run, players, ids: players.map((p) => p.id), initial };
}

/** Ops with repeats resolved to the call they repeat. */
function resolve(x: Ctx, ops: Op[]): { path: string; body: Record<string, unknown>; b: number }[] {
  const calls: { path: string; body: Record<string, unknown>; b: number }[] = [];
  for (const op of ops) {
    if (op.k === 'repeat') {
      if (calls.length) calls.push(calls[Math.max(0, calls.length - 1 - (op.back % calls.length))]!);
      continue;
    }
    const [path, body] = request(x, op);
    calls.push({ path, body, b: op.b });
  }
  return calls;
}

async function conservation(ids: number[]) {
  const db = t.database.db;
  const rows = await db.select({ cash: bettors.cashBalance }).from(bettors).where(inArray(bettors.id, ids));
  const sumBalances = rows.reduce((s, r) => s + r.cash, 0);
  const [billSum] = await db.select({ s: sql<string>`coalesce(sum(${bills.amount}), 0)` }).from(bills).where(inArray(bills.bettorId, ids));
  return { sumBalances, billSum: Number(billSum!.s), house: (await houseBalance(t, HOUSE.casino)) + (await houseBalance(t, HOUSE.bonuses)) };
}

describe('wallet property', () => {
  it('one call at a time, every answer is the model\'s', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 30 }), async (ops) => {
        const x = await setUp();
        const model = new Model(x.initial);
        const before = await conservation(x.ids);
        for (const call of resolve(x, ops)) {
          const r = await c.call(call.path, call.body);
          const want = model.apply(call.path, call.body, call.b);
          expect(r.status).toBe(200);
          expect({ call: call.path, uuid: call.body.transaction_uuid, status: r.body.status, balance: r.body.balance }).toEqual({
            call: call.path, uuid: call.body.transaction_uuid, ...want,
          });
        }
        for (const [i, id] of x.ids.entries()) {
          const [b] = await t.database.db.select({ cash: bettors.cashBalance }).from(bettors).where(eq(bettors.id, id));
          expect(b!.cash).toBe(model.balance[i]);
        }
        const after = await conservation(x.ids);
        expect(after.billSum).toBe(after.sumBalances);
        expect(after.sumBalances + after.house).toBe(before.sumBalances + before.house);
      }),
      { numRuns: 25 },
    );
    expect(await checkInvariants(t.database.db)).toEqual([]);
  }, 240_000);

  it('in concurrent batches with duplicates, no money is created or lost', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 10, maxLength: 30 }), fc.integer({ min: 2, max: 8 }), async (ops, width) => {
        const x = await setUp();
        const before = await conservation(x.ids);
        const calls = resolve(x, ops);
        // A call answered RS_OK answers the same (status and balance) to every identical call after it.
        const accepted = new Map<string, number>();
        const keyOf = (call: (typeof calls)[number]) => JSON.stringify([call.path, { ...call.body, request_uuid: null }]);
        for (let i = 0; i < calls.length; i += width) {
          const batch = calls.slice(i, i + width);
          const answers = await Promise.all(batch.map((call) => c.call(call.path, call.body)));
          for (const [j, a] of answers.entries()) {
            expect(a.status).toBe(200);
            const call = batch[j]!;
            if (a.body.status === 'RS_OK' && call.path !== 'round/end' && call.path !== 'user/balance') {
              const seen = accepted.get(keyOf(call));
              if (seen !== undefined) expect(a.body.balance).toBe(seen);
              accepted.set(keyOf(call), a.body.balance);
            }
          }
        }
        // Every call again, all at once (a provider's retries): the accepted ones replay their answer.
        const retries = await Promise.all(calls.map((call) => c.call(call.path, call.body)));
        for (const [j, a] of retries.entries()) {
          const seen = accepted.get(keyOf(calls[j]!));
          if (seen !== undefined) expect(a.body).toMatchObject({ status: 'RS_OK', balance: seen });
        }
        const after = await conservation(x.ids);
        expect(after.billSum).toBe(after.sumBalances);
        expect(after.sumBalances + after.house).toBe(before.sumBalances + before.house);
        // Each bettor's balance is what their accepted transactions say.
        const rows = (await t.database.db.execute(sql`
          SELECT r.bettor_id, sum(CASE t.kind WHEN 'bet' THEN -t.amount ELSE t.amount END) AS net
          FROM casino_transactions t JOIN casino_rounds r ON r.id = t.round_id
          WHERE t.status = 'RS_OK' AND r.bettor_id IN (${sql.join(x.ids.map((id) => sql`${id}`), sql`, `)}) GROUP BY r.bettor_id`)) as unknown as { rows: { bettor_id: number; net: string }[] };
        for (const [i, id] of x.ids.entries()) {
          const net = Number(rows.rows.find((r) => Number(r.bettor_id) === id)?.net ?? 0);
          const [b] = await t.database.db.select({ cash: bettors.cashBalance }).from(bettors).where(eq(bettors.id, id));
          expect(b!.cash).toBe(x.initial[i]! + net);
        }
      }),
      { numRuns: 8 },
    );
    expect(await checkInvariants(t.database.db)).toEqual([]);
  }, 240_000);
});
