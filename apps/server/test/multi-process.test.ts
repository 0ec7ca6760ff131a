/**
 * Two server processes on one PostgreSQL database behave as one product (issue 11): real processes
 * (test/support/processes.ts), both with the simulator and the sandbox odds feed switched on, so that
 * one of them leads.
 *  (a) a settlement job runs once: two matches' settlements sent at the same moment, one through each
 *      process; every order settled exactly once, one job per match, completed;
 *  (b) leader hand-over: the process that runs the sandbox feed and the simulator is killed (-9), the
 *      other takes over (it says so in its log), and the restarted one follows;
 *  (c) a notice sent through one process reaches a socket connected to the other;
 *  (d) a session signed out on one process is refused by the other on its next request (and its socket
 *      there is closed); an admin disabled on one is refused by the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUS } from '@dau/domain';
import { checkInvariants } from '../src/modules/money/ledger.js';
import { AGENT_KEYS, makeAdmin, makeRole, PASSWORD, type TestApp } from './helpers.js';
import { writeBulkOrders, type BulkOrders } from './support/bulk-orders.js';
import { expectStatus, processDatabase, startServerProcess, waitFor, type ProcessDatabase, type ServerProcess } from './support/processes.js';
import { connectSocket, socketHello } from './support/socket-client.js';

const ORDERS = 1_500;
const MATCHES = ['sr:match:two_1', 'sr:match:two_2'];
/** What main.ts logs (info) when a process becomes the leader. */
const LEADS = 'this process runs the simulator and the sandbox odds feed';

describe.skipIf(!process.env.TEST_DATABASE_URL)('two server processes on one database', () => {
  let pdb: ProcessDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let bulk: BulkOrders;
  let staff: { one: number; two: number; three: number };
  const q = async (text: string, values?: unknown[]) => (await pdb.database.query(text, values)).rows;
  const both = () => `${a?.output() ?? ''}\n${b?.output() ?? ''}`;
  const leads = (s: ServerProcess) => s.output().split(`--- ${s.name}: start`).at(-1)!.includes(LEADS);
  const opts = (name: string) => ({ name, simulator: true, logLevel: 'info' });

  beforeAll(async () => {
    pdb = await processDatabase();
    bulk = await writeBulkOrders(pdb.database, { targets: MATCHES, orders: ORDERS, bettors: 300, tag: 'two' });
    const t = { database: pdb.database } as unknown as TestApp;
    const role = await makeRole(t, 'Agent', AGENT_KEYS);
    const [root] = await q(`SELECT id FROM admins WHERE account = 'admin'`);
    staff = {
      one: await makeAdmin(t, 'staff_one', role, root.id),
      two: await makeAdmin(t, 'staff_two', role, root.id),
      three: await makeAdmin(t, 'staff_three', role, root.id),
    };
    [a, b] = await Promise.all([startServerProcess(pdb.url, opts('A')), startServerProcess(pdb.url, opts('B'))]);
  }, 600_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await pdb?.dispose();
  });

  it('(a) runs a settlement job once: each order settled once, whichever process took it', async () => {
    const [ta, tb] = await Promise.all([a.login(), b.login()]);
    const answers = await Promise.all([
      a.api('POST', '/api/v1/sandbox/feed/messages', bulk.settleMessage(MATCHES[0]), ta),
      b.api('POST', '/api/v1/sandbox/feed/messages', bulk.settleMessage(MATCHES[1]), tb),
    ]);
    for (const r of answers) expect(expectStatus(r, 201, 'bet_settlement', a).applied).toBe(true);
    // The jobs finished (completed, or failed for good), then the orders are looked at.
    await waitFor(
      'the settlement jobs of both matches finished',
      async () =>
        (await q(`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'betting.settle-event' AND data->>'eventId' = ANY($1::text[]) AND state IN ('created', 'retry', 'active')`, [MATCHES]))[0]
          .n === 0,
      { output: both },
    );
    const [orders] = await q(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE o.status <> ${ORDER_STATUS.settled} OR o.version <> 2)::int AS not_once,
              count(*) FILTER (WHERE (SELECT count(*) FROM order_events e WHERE e.order_id = o.id AND e.kind <> 'placed') <> 1)::int AS events_not_once
       FROM orders o WHERE o.order_no LIKE 'Otwo%'`,
    );
    expect(orders).toEqual({ n: ORDERS * MATCHES.length, not_once: 0, events_not_once: 0 });
    const jobs = await q(
      `SELECT data->>'eventId' AS event, state, count(*)::int AS n FROM pgboss.job WHERE name = 'betting.settle-event' AND data->>'eventId' = ANY($1::text[]) GROUP BY 1, 2 ORDER BY 1`,
      [MATCHES],
    );
    expect(jobs).toEqual(MATCHES.map((event) => ({ event, state: 'completed', n: 1 })));
    expect(await checkInvariants(pdb.database.db)).toEqual([]);
  });

  it('(b) hands the sandbox feed and the simulator over to the other process when the leader dies', async () => {
    await waitFor('one process leading', () => leads(a) || leads(b), { output: both });
    const [leader, follower] = leads(a) ? [a, b] : [b, a];
    expect(leads(follower)).toBe(false);
    await leader.kill();
    const killed = Date.now();
    // Hang guard only: the follower retries the lock every 2 s and the dead one's lock went with its connection.
    await waitFor(`${follower.name} to take the lead`, () => leads(follower), { output: both, timeoutMs: 60_000 });
    console.log(`leader hand-over: ${follower.name} leads ${Date.now() - killed} ms after the kill -9 of ${leader.name}`);
    await leader.restart();
    // The restarted process follows: its start is over (health answers) and the survivor keeps the lead.
    expect(leads(follower)).toBe(true);
    await waitFor('the restarted process to answer', async () => (await leader.api('GET', '/api/health')).status === 200);
    expect(leads(leader)).toBe(false);
  });

  it('(c) delivers a notice sent through one process to a socket connected to the other', async () => {
    const s = await b.signIn('staff_one', PASSWORD);
    const socket = await connectSocket(b.port, s.ws_key);
    socket.ws.send(socketHello(s));
    expect((await socket.next((m) => m.type === 1)).status).toBe(true);
    const root = await a.login();
    expectStatus(await a.api('POST', '/api/v1/system/administrators/notify', { admin_ids: [staff.one], content: 'Settlement finished on A' }, root), 200, 'notify', a);
    const notice = await socket.next((m) => m.type === 10);
    expect(notice.content.content).toBe('Settlement finished on A');
    socket.ws.close();
  });

  it('(d) refuses on one process a session signed out or an admin disabled on the other', async () => {
    const s = await a.signIn('staff_two', PASSWORD);
    expect((await b.api('GET', '/api/v1/auth/me', undefined, s.token)).status).toBe(200);
    const socket = await connectSocket(b.port, s.ws_key);
    socket.ws.send(socketHello(s));
    expect((await socket.next((m) => m.type === 1)).status).toBe(true);
    expectStatus(await a.api('POST', '/api/v1/auth/logout', undefined, s.token), 200, 'sign out on A', a);
    expect((await b.api('GET', '/api/v1/auth/me', undefined, s.token)).status).toBe(401);
    expect(await socket.closed).toBe(3001);

    const t3 = await b.login('staff_three', PASSWORD);
    expect((await a.api('GET', '/api/v1/auth/me', undefined, t3)).status).toBe(200);
    const root = await b.login();
    expectStatus(await b.api('POST', `/api/v1/system/administrators/${staff.three}/disable`, { disabled: 2 }, root), 200, 'disable on B', b);
    expect((await a.api('GET', '/api/v1/auth/me', undefined, t3)).status).toBe(401);
  });
});
