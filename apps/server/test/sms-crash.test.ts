/**
 * An SMS send survives a kill -9 of the server (issue 15): every recipient gets exactly one message.
 *
 * A real server process on its own PostgreSQL database (test/support/processes.ts) sends to 10,000
 * numbers through THE SANDBOX SMS GATEWAY, which runs here in the test process (an outside party: it
 * outlives our server) with its books in `sandbox_sms_messages`. The server is killed (SIGKILL of its
 * process group) while the delivery job is inside its work, then restarted. Rows claimed before the kill
 * whose answer was never recorded are in doubt: the gateway's delivery reports (sent again until our
 * callback answers, as the server comes back) settle them by phone; none is resent while the grace
 * period (DAU_SMS_DOUBT_SECONDS, 90 s here) runs. The test waits for the send to be done with every
 * recipient delivered (a state, not a time), then counts the gateway's books: one message per number.
 * It first checks that the kill did land mid-send (numbers in the gateway's books, rows still queued),
 * so a kill after the end (or before the start) fails instead of passing trivially.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmsSandbox, type SmsSandbox } from '../src/modules/sms/index.js';
import { expectStatus, processDatabase, startServerProcess, waitFor, type ProcessDatabase, type ServerProcess } from './support/processes.js';

const RECIPIENTS = 4_000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('SMS send after a kill -9 (PostgreSQL, server process)', () => {
  let pdb: ProcessDatabase;
  let server: ServerProcess;
  let gw: SmsSandbox;
  let serverUrl = '';
  const q = async (text: string, values?: unknown[]) => (await pdb.database.query(text, values)).rows as any[];
  const token = async () => ((await q(`SELECT callback_token FROM sms_config WHERE id = 1`))[0]?.callback_token as string | undefined) ?? null;

  beforeAll(async () => {
    pdb = await processDatabase({ prefix: 'dau_sms' });
    gw = await startSmsSandbox({
      db: pdb.database.db, port: 0, dlrDelayMs: 200, ratePerSecond: 1_000_000,
      deliveryUrl: async () => (serverUrl && (await token()) ? `${serverUrl}/api/public/sms/at/delivery?token=${await token()}` : null),
      incomingUrl: async () => null,
    });
    server = await startServerProcess(pdb.url, {
      name: 'sms',
      env: { DAU_SMS_API_URL: gw.apiUrl, DAU_SMS_DOUBT_SECONDS: '90' },
    });
    serverUrl = server.baseUrl;
    // Fast enough for a test: 2,000 messages a second in chunks of 100.
    await q(`UPDATE sms_config SET rate_per_second = 2000 WHERE id = 1`);
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    await gw?.stop();
    await pdb?.dispose();
  });

  const progress = async () => {
    const [r] = await q(`SELECT count(*)::int AS n FROM sandbox_sms_messages`);
    return r.n as number;
  };

  it('every recipient gets exactly one message after a kill -9 inside the delivery job', { timeout: 900_000 }, async () => {
    const tokenA = await server.login();
    const phones = Array.from({ length: RECIPIENTS }, (_, i) => `0715${String(i).padStart(6, '0')}`).join('\n');
    const send = expectStatus(await server.api('POST', '/api/v1/sms/sends', { content: 'Crash test: karibu tena!', target: { kind: 'phones', phones } }, tokenA), 201, 'send', server);
    expect(send.recipient_count).toBe(RECIPIENTS);

    await waitFor('the gateway accepting the first messages', async () => (await progress()) >= 500, { intervalMs: 5, output: server.output });
    await server.kill();
    const atKill = await progress();
    const [states] = await q(
      `SELECT count(*) FILTER (WHERE status = 'sending')::int AS sending, count(*) FILTER (WHERE status = 'queued')::int AS queued,
              count(*) FILTER (WHERE status NOT IN ('queued', 'sending'))::int AS answered
       FROM sms_recipients WHERE send_id = $1`,
      [send.id],
    );
    console.log(`SMS crash test: killed with ${atKill} of ${RECIPIENTS} messages in the gateway's books, ${states.answered} rows answered, ${states.sending} rows in doubt, ${states.queued} queued`);
    // The kill fell in the middle of the send, or the test proves nothing: some numbers had reached the
    // gateway (and some of those answers were recorded), others were not yet even claimed.
    expect(atKill).toBeGreaterThan(0);
    expect(atKill).toBeLessThan(RECIPIENTS);
    expect(states.answered + states.sending).toBeGreaterThan(0);
    expect(states.queued).toBeGreaterThan(0);
    expect(states.answered + states.sending + states.queued).toBe(RECIPIENTS);

    await server.restart();
    await waitFor(
      'the send done with every recipient reported',
      async () => {
        const [s] = await q(`SELECT status, sent_count, delivered_count, failed_count FROM sms_sends WHERE id = $1`, [send.id]);
        return s.status === 'done' && s.delivered_count + s.failed_count >= RECIPIENTS ? s : null;
      },
      { intervalMs: 500, timeoutMs: 800_000, output: server.output },
    );

    // The gateway's books: each number exactly once.
    const [books] = await q(`SELECT count(*)::int AS n, count(DISTINCT phone)::int AS phones FROM sandbox_sms_messages`);
    expect(books).toEqual({ n: RECIPIENTS, phones: RECIPIENTS });
    const missing = await q(`SELECT r.phone FROM sms_recipients r WHERE r.send_id = $1 AND NOT EXISTS (SELECT 1 FROM sandbox_sms_messages m WHERE m.phone = r.phone) LIMIT 5`, [send.id]);
    expect(missing).toEqual([]);
    // Our side: every row delivered with the gateway's message id, counters equal to the rows.
    const [ours] = await q(
      `SELECT count(*) FILTER (WHERE status = 'delivered')::int AS delivered, count(DISTINCT provider_message_id)::int AS ids
       FROM sms_recipients WHERE send_id = $1`,
      [send.id],
    );
    expect(ours.delivered).toBe(RECIPIENTS);
    expect(ours.ids).toBe(RECIPIENTS);
    const [s] = await q(`SELECT sent_count, delivered_count, failed_count FROM sms_sends WHERE id = $1`, [send.id]);
    expect(s).toEqual({ sent_count: RECIPIENTS, delivered_count: RECIPIENTS, failed_count: 0 });
    const [ids] = await q(`SELECT count(*)::int AS n FROM sms_recipients r JOIN sandbox_sms_messages m ON m.message_id = r.provider_message_id AND m.phone = r.phone WHERE r.send_id = $1`, [send.id]);
    expect(ids.n).toBe(RECIPIENTS);
  });
});
