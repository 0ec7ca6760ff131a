/**
 * Group commit of the wallet's hot path. A bet or a win that goes well is one movement (round, the
 * bettor's guarded balance update, bill, house counter-entry, transaction row); applied one statement per
 * call, a wallet under load spends most of PostgreSQL's time committing and most of Node's writing to its
 * sockets. So the movements that arrive together are applied together: the batcher queues them, and one
 * statement (`dau_casino_hot_batch`, migration 0027, redefined by 0036) applies up to MAX_BATCH of them in
 * one round trip and one commit; each element's money is moved by the ledger's `dau_ledger_post` (money/
 * ledger.ts), the same function every other posting calls. Nobody is answered before that commit: what a
 * provider hears as RS_OK is durable.
 *
 * Each element runs in its own subtransaction, so a refusal, a replayed uuid or a lock problem rolls back
 * that element alone and answers `undefined`: the caller then decides that call on the full transactional
 * path (wallet.ts), exactly as a refused single statement did. If the whole statement fails (a lost
 * connection, an unexpected error), every element answers `undefined` and takes the full path; an element
 * that had in fact committed is then found there by its uuid and its stored answer replayed.
 *
 * Lock order: a batch's elements are sorted by bettor, so two batches in flight lock bettors (and the
 * bettors' rounds and bets) in the same order and never wait on each other in a circle.
 *
 * No added wait when idle: a call is sent at once when fewer than MAX_IN_FLIGHT batches are running (in
 * the same turn of the event loop as others that arrived with it); under load, calls gather while the
 * running batches commit, and the next batch takes them all.
 */
import { ACCOUNT_KIND, BET_STATUS, BILL_TYPE, RISK_LEVEL, USER_DISABLED } from '@dau/domain';
import type { Database } from '../../platform/db.js';
import { walletBatchSize } from '../../platform/metrics.js';
import { HOUSE, newSerial, newTxnId } from '../money/index.js';

/** A movement of the hot path. `amount` is in cents; a bet's is the debit (> 0). */
export type HotMove =
  | { kind: 'bet'; providerId: number; bettorId: number; gameId: number; roundRef: string; uuid: string; hash: string; amount: number }
  | { kind: 'win'; providerId: number; bettorId: number; roundRef: string; uuid: string; refUuid: string; hash: string; amount: number; free: boolean };

/** Elements of one statement: well under the 64 subtransactions PostgreSQL tracks per transaction without overflowing. */
export const MAX_BATCH = 50;
/** Batches running at once (each on its own pooled connection): DAU_WALLET_BATCHES, default MAX_IN_FLIGHT. */
export const MAX_IN_FLIGHT = 4;
export const walletBatchesInFlight = (env = process.env) => {
  const n = Number(env.DAU_WALLET_BATCHES);
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : MAX_IN_FLIGHT;
};

interface Pending {
  move: HotMove;
  done: (balance: number | undefined) => void;
}

const STATEMENT =
  'SELECT idx, bal FROM dau_casino_hot_batch($1::text[], $2::int[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[], $8::bigint[], ' +
  '$9::text[], $10::text[], $11::text[], $12::smallint[], $13::text[], $14::smallint, $15::smallint, $16::text, $17::smallint, $18::smallint, $19::smallint)';

export class HotBatcher {
  private queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly prepared: Database['prepared'],
    private readonly log: (msg: string, err: unknown) => void = () => {},
    private readonly limits = { maxBatch: MAX_BATCH, maxInFlight: MAX_IN_FLIGHT },
  ) {}

  /** Applies the movement; its bettor's balance after it, or `undefined`: decide it on the full path. */
  apply(move: HotMove): Promise<number | undefined> {
    return new Promise((done) => {
      this.queue.push({ move, done });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump() {
    while (this.inFlight < this.limits.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.limits.maxBatch);
      this.inFlight++;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }

  private async run(batch: Pending[]) {
    batch.sort((a, b) => a.move.bettorId - b.move.bettorId);
    walletBatchSize.observe(batch.length);
    const cols = {
      kinds: [] as string[], providers: [] as number[], bettors: [] as number[], games: [] as (number | null)[], rounds: [] as string[],
      uuids: [] as string[], hashes: [] as string[], amounts: [] as number[], serials: [] as (string | null)[], txns: [] as (string | null)[],
      refs: [] as (string | null)[], billTypes: [] as (number | null)[], houses: [] as (string | null)[],
    };
    for (const { move: m } of batch) {
      const moves = m.amount > 0;
      cols.kinds.push(m.kind === 'bet' ? 'bet' : moves ? 'win' : 'zero_win');
      cols.providers.push(m.providerId);
      cols.bettors.push(m.bettorId);
      cols.games.push(m.kind === 'bet' ? m.gameId : null);
      cols.rounds.push(m.roundRef);
      cols.uuids.push(m.uuid);
      cols.hashes.push(m.hash);
      cols.amounts.push(m.amount);
      cols.serials.push(moves ? newSerial('B') : null);
      cols.txns.push(moves ? newTxnId() : null);
      cols.refs.push(m.kind === 'win' ? m.refUuid : null);
      cols.billTypes.push(m.kind === 'win' ? (m.free ? BILL_TYPE.casino_award : BILL_TYPE.casino_win) : null);
      cols.houses.push(m.kind === 'win' ? (m.free ? HOUSE.bonuses : HOUSE.casino) : null);
    }
    let balances: (number | undefined)[];
    try {
      const { rows } = await this.prepared('casino_hot_batch', STATEMENT, [
        cols.kinds, cols.providers, cols.bettors, cols.games, cols.rounds, cols.uuids, cols.hashes, cols.amounts, cols.serials, cols.txns,
        cols.refs, cols.billTypes, cols.houses, ACCOUNT_KIND.cash, BILL_TYPE.casino_bet, HOUSE.casino, USER_DISABLED.enabled, BET_STATUS.allowed,
        RISK_LEVEL.no_betting,
      ]);
      balances = batch.map(() => undefined);
      for (const r of rows as { idx: number; bal: string | number | null }[]) balances[Number(r.idx) - 1] = r.bal == null ? undefined : Number(r.bal);
    } catch (err) {
      // Nothing is known of this statement's outcome: every element is decided on the full path, by its uuid.
      this.log(`casino wallet batch of ${batch.length} failed; its calls take the full path`, err);
      balances = batch.map(() => undefined);
    }
    batch.forEach((p, i) => p.done(balances[i]));
  }
}
