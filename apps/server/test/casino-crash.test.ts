/**
 * The sandbox game provider's retries settle every round exactly once across a kill -9 (issue 13). A real
 * server process on its own PostgreSQL database runs the sandbox game provider (DAU_CASINO_SANDBOX=1, its
 * own port) with every failure kind at high rates; bettors' game clients play 150 rounds through it; the
 * process is killed (SIGKILL of its process group: the wallet and the provider die together) once a
 * random number of wallet calls are answered, with calls in flight and many still in the provider's
 * outbox (casino_sandbox_outbox, which outlives the process as a real provider's retry queue does).
 * Restarted, the provider takes up its outbox and retries every unanswered call with its same
 * transaction id until it gets an answer; the test waits until the outbox is empty (a state, not a time).
 * Then every round of the provider's book is completed or rolled back at the wallet exactly as meant, the
 * rounds' totals are their transactions', each transaction has its one bill (no duplicate bill), the
 * bettors' balances are what they had minus the bets kept plus the wins, and the ledger's invariants hold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_KIND, BILL_TYPE } from '@dau/domain';
import { HOUSE, checkInvariants, post } from '../src/modules/money/ledger.js';
import { openSession } from '../src/modules/casino/service.js';
import { checkSandboxRounds } from './support/casino-sandbox.js';
import { freePort, processDatabase, startServerProcess, waitFor, type ProcessDatabase, type ServerProcess } from './support/processes.js';

const FUNDS = 10_000_000_00;
const PLAYERS = 6;
const ROUNDS = 25;

describe.skipIf(!process.env.TEST_DATABASE_URL)('sandbox game provider killed -9 while it plays (PostgreSQL, server process)', () => {
  let pdb: ProcessDatabase;
  let server: ServerProcess;
  let sandboxUrl: string;
  const q = async <T>(text: string, values: unknown[] = []) => (await pdb.database.query(text, values)).rows as T[];

  beforeAll(async () => {
    pdb = await processDatabase({ prefix: 'dau_casino' });
    const port = await freePort();
    sandboxUrl = `http://127.0.0.1:${port}`;
    server = await startServerProcess(pdb.url, {
      name: 'casino',
      logLevel: 'info',
      env: {
        DAU_CASINO_SANDBOX: '1',
        DAU_CASINO_SANDBOX_PORT: String(port),
        DAU_CASINO_SANDBOX_DUPLICATE_RATE: '0.2',
        DAU_CASINO_SANDBOX_TIMEOUT_RATE: '0.2',
        DAU_CASINO_SANDBOX_ROLLBACK_RATE: '0.1',
        DAU_CASINO_SANDBOX_LATE_WIN_RATE: '0.15',
        DAU_CASINO_SANDBOX_OUT_OF_ORDER_RATE: '0.1',
        DAU_CASINO_SANDBOX_LATE_MS: '2000',
        DAU_CASINO_SANDBOX_BACKOFF_MS: '100',
      },
    });
  }, 600_000);

  afterAll(async () => {
    await server?.stop();
    await pdb?.dispose();
  });

  it('retries every unanswered call after the restart; every round settled exactly once', { timeout: 900_000 }, async () => {
    const db = pdb.database.db;
    const players: number[] = [];
    for (let i = 0; i < PLAYERS; i++) {
      const [{ id }] = await q<{ id: number }>(
        `INSERT INTO bettors (phone, name, agent_id) SELECT $1, $2, id FROM admins WHERE account = 'admin' RETURNING id`,
        [`2557110${String(i).padStart(5, '0')}`, `Casino player ${i}`],
      );
      await db.transaction((tx) =>
        post(tx, { bettorId: id, account: ACCOUNT_KIND.cash, amount: FUNDS, type: BILL_TYPE.user_recharge, cause: { type: 'recharge', id: `casino-crash-${id}` }, house: HOUSE.clearing(6) }),
      );
      players.push(id);
    }
    const games = await q<{ id: number; game_code: string }>(
      `SELECT g.id, g.game_code FROM casino_games g JOIN casino_providers p ON p.id = g.provider_id WHERE p.code = 'sandbox' AND g.enabled ORDER BY g.id`,
    );
    expect(games.length).toBeGreaterThanOrEqual(3);
    const sessions = [];
    for (const [i, id] of players.entries()) {
      const g = games[i % games.length]!;
      sessions.push({ token: (await openSession(db, id, g.id)).token, game: g.game_code });
    }
    await waitFor('the sandbox game provider listening', async () => (await fetch(`${sandboxUrl}/health`).catch(() => null))?.ok, { output: server.output });

    // The game clients press "spin": every round is in the provider's book when /play answers.
    const plays = await Promise.all(
      sessions.map(async (s) => {
        const res = await fetch(`${sandboxUrl}/play`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token: s.token, game: s.game, rounds: ROUNDS, stake: 2_000_00 }),
        });
        return { status: res.status, body: (await res.json()) as { rounds: unknown[] } };
      }),
    );
    for (const p of plays) expect(p.status, JSON.stringify(p.body)).toBe(200);
    const [{ total }] = await q<{ total: number }>(`SELECT count(*)::int AS total FROM casino_sandbox_outbox`);
    expect(plays.reduce((s, p) => s + p.body.rounds.length, 0)).toBe(PLAYERS * ROUNDS);

    // Kill once a random number of calls are answered: calls in flight, the rest waiting in the outbox.
    const killAfter = 10 + Math.floor(Math.random() * Math.floor(total / 2));
    const answered = async () => (await q<{ n: number }>(`SELECT count(*)::int AS n FROM casino_sandbox_outbox WHERE state <> 1`))[0]!.n;
    await waitFor(`${killAfter} wallet calls answered`, async () => (await answered()) >= killAfter, { intervalMs: 5, output: server.output });
    await server.kill();
    const pendingAtKill = (await q<{ id: number }>(`SELECT id FROM casino_sandbox_outbox WHERE state = 1`)).map((r) => r.id);
    expect(pendingAtKill.length).toBeGreaterThan(0);
    // Calls the wallet had committed whose answer the provider never recorded: their retry must replay.
    const [{ lost }] = await q<{ lost: number }>(
      `SELECT count(*)::int AS lost FROM casino_sandbox_outbox o JOIN casino_transactions t ON t.transaction_uuid = o.transaction_uuid WHERE o.state = 1`,
    );

    await server.restart();
    const context = () => `kill after ${killAfter} of ${total} calls answered, ${pendingAtKill.length} pending at the kill (${lost} of them done by the wallet, answer lost)\n${server.output()}`;
    await waitFor('the provider\'s outbox settled', async () => (await q<{ n: number }>(`SELECT count(*)::int AS n FROM casino_sandbox_outbox WHERE state = 1`))[0]!.n === 0, {
      intervalMs: 250,
      output: context,
    });

    // Every call pending at the kill was answered after the restart.
    const after = await q<{ n: number }>(`SELECT count(*)::int AS n FROM casino_sandbox_outbox WHERE id = ANY($1) AND state = 2`, [pendingAtKill]);
    expect(after[0]!.n, context()).toBe(pendingAtKill.length);

    const report = await checkSandboxRounds(db);
    expect(report.problems, context()).toEqual([]);
    expect(report.rounds).toBe(PLAYERS * ROUNDS);
    for (const script of ['normal', 'rollback', 'late_win', 'out_of_order']) expect(report.byScript[script] ?? 0, script).toBeGreaterThan(0);

    // No duplicate bill: one bill per wallet transaction that moved money, and nothing else of the casino.
    const [bills] = await q<{ bills: number; distinct_txn: number; with_bill: number }>(
      `SELECT (SELECT count(*)::int FROM bills WHERE cause_type = 'casino') AS bills,
              (SELECT count(DISTINCT bill_id)::int FROM casino_transactions WHERE bill_id IS NOT NULL) AS distinct_txn,
              (SELECT count(*)::int FROM casino_transactions WHERE bill_id IS NOT NULL) AS with_bill`,
    );
    expect(bills!.bills).toBe(bills!.with_bill);
    expect(bills!.distinct_txn).toBe(bills!.with_bill);

    const [money] = await q<{ cash: string }>(`SELECT sum(cash_balance)::text AS cash FROM bettors WHERE id = ANY($1)`, [players]);
    expect(Number(money!.cash)).toBe(PLAYERS * FUNDS - report.betTotal + report.winTotal);
    expect(await checkInvariants(db)).toEqual([]);
  });
});
