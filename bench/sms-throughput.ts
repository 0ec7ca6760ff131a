/**
 * SMS throughput benchmark (issue 15): messages a second from a confirmed send, through the durable
 * `sms.deliver` job and the Africa's Talking adapter, into THE SANDBOX SMS GATEWAY (its own HTTP server on
 * localhost, books in `sandbox_sms_messages`), and delivery reports a second back through our public
 * callback. One app (buildApp, listening on a free port) with its job workers, on PostgreSQL (BENCH_URL,
 * a scratch database) and on PGlite. The send is BENCH_SMS numbers (default 20,000) from a pasted list;
 * the settings allow BENCH_SMS_RATE messages a second (default 5,000) in chunks of 100 a request.
 * Prints: request accepted (ms), accepted by the gateway (messages/s), all delivery reports applied
 * (reports/s), and checks one message per number in the gateway's books. Prints figures; never a gate.
 * Run: `node --import tsx bench/sms-throughput.ts` (BENCH_SMS, BENCH_SMS_RATE, BENCH_URL, BENCH_TARGETS=pg,pglite).
 *
 * Figures, 2026-11-25, this machine (2 shared cores, load average 5-12 from other sessions):
 *   5 provider calls a job run, 20,000 numbers: PostgreSQL request 5.4 s, accepted 452/s, reports applied 136/s;
 *                                               PGlite     request 2.3 s, accepted 790/s, reports applied 220/s
 *   50 calls / 20 s a run (now), 10,000 numbers: PostgreSQL request 2.8 s, accepted 639/s, reports applied 327/s
 * The gateway itself is not the limit (it accepts 100 numbers a request); our side is one job worker per
 * send (claim commit, HTTP call, answer commit per 100) and one transaction per delivery report.
 */
import { openPglite, openPostgres, type Database } from '../apps/server/src/platform/db.js';
import { seed } from '../apps/server/src/seed.js';
import { buildApp } from '../apps/server/src/app.js';
import { configureSms, startSmsSandbox } from '../apps/server/src/modules/sms/index.js';
import { scratchDatabase } from './support';

const N = Number(process.env.BENCH_SMS ?? 20_000);
const RATE = Number(process.env.BENCH_SMS_RATE ?? 5_000);
const TARGETS = (process.env.BENCH_TARGETS ?? 'pg,pglite').split(',');
const PASSWORD = 'Bench#2026pass';

async function run(label: string, database: Database) {
  await database.migrate();
  await seed(database.db, { adminPassword: PASSWORD, demo: false });
  const { app } = await buildApp({ database, logger: false });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = ((await database.query(`SELECT callback_token FROM sms_config WHERE id = 1`)).rows[0] as { callback_token: string }).callback_token;
  await database.query(`UPDATE sms_config SET rate_per_second = $1 WHERE id = 1`, [RATE]);
  const gw = await startSmsSandbox({
    db: database.db, port: 0, dlrDelayMs: 100, ratePerSecond: 1_000_000,
    deliveryUrl: () => `${url}/api/public/sms/at/delivery?token=${token}`, incomingUrl: () => null,
  });
  configureSms({ apiUrl: gw.apiUrl });
  try {
    const login = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { account: 'admin', password: PASSWORD } });
    const auth = { authorization: `Bearer ${JSON.parse(login.body).token}` };
    const phones = Array.from({ length: N }, (_, i) => `0716${String(i).padStart(6, '0')}`).join('\n');
    const t0 = performance.now();
    const res = await app.inject({ method: 'POST', url: '/api/v1/sms/sends', headers: auth, payload: { content: 'Bench: karibu tena! Weka dau leo.', target: { kind: 'phones', phones } } });
    const accepted = performance.now() - t0;
    if (res.statusCode !== 201) throw new Error(`send refused: ${res.statusCode} ${res.body}`);
    const id = JSON.parse(res.body).id as number;
    const state = async () =>
      (await database.query(`SELECT sent_count, delivered_count, failed_count, status FROM sms_sends WHERE id = $1`, [id])).rows[0] as {
        sent_count: number; delivered_count: number; failed_count: number; status: string;
      };
    let sentAt = 0;
    for (;;) {
      const s = await state();
      if (!sentAt && s.sent_count + s.failed_count >= N) sentAt = performance.now() - t0;
      if (s.delivered_count + s.failed_count >= N) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const reportedAt = performance.now() - t0;
    const [books] = (await database.query(`SELECT count(*)::int AS n, count(DISTINCT phone)::int AS phones FROM sandbox_sms_messages`)).rows as { n: number; phones: number }[];
    const ok = books!.n === N && books!.phones === N;
    const rate = (ms: number) => `${Math.round((N * 1000) / ms).toLocaleString('en-US')}/s (${(ms / 1000).toFixed(1)} s)`;
    console.log(
      `${label.padEnd(10)} ${N.toLocaleString('en-US')} numbers: request ${Math.round(accepted)} ms; accepted by the gateway ${rate(sentAt)}; delivery reports applied ${rate(reportedAt)}; books ${ok ? 'ok' : `WRONG ${JSON.stringify(books)}`}`,
    );
  } finally {
    await gw.stop();
    await app.close();
  }
}

for (const target of TARGETS) {
  if (target === 'pglite') {
    const d = await openPglite();
    await run('PGlite', d);
    await d.close();
  } else if (target === 'pg') {
    const scratch = scratchDatabase(`dau_bench_sms_${process.pid}`);
    try {
      await scratch.admin(`CREATE DATABASE dau_bench_sms_${process.pid}`);
    } catch (err) {
      console.log(`PostgreSQL skipped: ${(err as Error).message}`);
      continue;
    }
    const d = await openPostgres(scratch.url(), { max: 20 });
    try {
      await run('PostgreSQL', d);
    } finally {
      await d.close();
      await scratch.admin(`DROP DATABASE IF EXISTS dau_bench_sms_${process.pid} WITH (FORCE)`);
    }
  }
}
process.exit(0);
