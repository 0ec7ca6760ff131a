/**
 * What sign-in does against password guessing (issue: lockout and limits). The real app in-process on
 * an embedded database, default subscriber config (5 failures / 15 min). Each scenario sends 1,000
 * wrong passwords; a refused attempt (429) waits its Retry-After on a simulated clock (the recorded
 * attempts are moved into the past), so days of guessing run in minutes. Prints, per scenario: how many
 * guesses were checked against the password, how many requests were refused unchecked, the simulated
 * time to get all 1,000 guesses checked, and whether the owner (right password, from the address they
 * signed in from before) got in during the attack and how long a new address of the owner waited.
 * Run: `node --import tsx bench/login-guessing.ts [scenario numbers]`. Prints figures; never a gate.
 */
import { buildApp } from '../apps/server/src/app.js';
import { openPglite } from '../apps/server/src/platform/db.js';
import { seed } from '../apps/server/src/seed.js';

const PASSWORD = 'Bench#2026pass';
const GUESSES = 1_000;
const OWNER_IP = '10.0.0.1';

const database = await openPglite();
await database.migrate();
await seed(database.db, { adminPassword: PASSWORD, demo: false });
const { app } = await buildApp({ database, feedMargin: () => 0 });
await app.ready();

const login = async (account: string, password: string, ip: string) => {
  const r = await app.inject({ method: 'POST', url: '/api/v1/auth/login', payload: { account, password }, remoteAddress: ip });
  return { status: r.statusCode, retry: Number(r.headers['retry-after'] ?? 0) };
};
/** Simulated time: every recorded attempt moves `seconds` into the past. */
const elapse = (seconds: number) => database.exec(`update login_attempts set created_at = created_at - interval '${seconds} seconds'`);

interface Scenario {
  name: string;
  /** The account and address of guess number i. */
  guess: (i: number) => { account: string; ip: string };
}

async function run(s: Scenario) {
  await database.exec('delete from login_attempts');
  // The owner has signed in from their office before: a known place.
  await login('admin', PASSWORD, OWNER_IP);
  let checked = 0;
  let refused = 0;
  let simulatedSeconds = 0;
  const ownerDuring: number[] = [];
  const t0 = performance.now();
  let i = 0;
  while (checked < GUESSES) {
    const g = s.guess(i);
    const r = await login(g.account, `wrong-guess-${i}`, g.ip);
    if (r.status === 401) {
      checked++;
      i++;
      if (checked === GUESSES / 2) ownerDuring.push((await login('admin', PASSWORD, OWNER_IP)).status);
      continue;
    }
    if (r.status !== 429) throw new Error(`unexpected ${r.status}`);
    refused++;
    i++;
    // The guesser waits what Retry-After says, then goes on from the next address.
    await elapse(r.retry);
    simulatedSeconds += r.retry;
  }
  // The owner from a new address right after the last guess: waits at most the back-off.
  const fresh = await login('admin', PASSWORD, '10.77.0.1');
  ownerDuring.push((await login('admin', PASSWORD, OWNER_IP)).status);
  const realSeconds = (performance.now() - t0) / 1000;
  return {
    scenario: s.name,
    guesses_checked: checked,
    requests_refused_unchecked: refused,
    simulated_time_to_check_all: `${(simulatedSeconds / 3600).toFixed(1)} h (${(simulatedSeconds / 86400).toFixed(1)} days)`,
    checked_per_hour: Math.round(checked / Math.max(simulatedSeconds / 3600, 1 / 3600)),
    owner_known_place_during_attack: ownerDuring.join(','),
    owner_new_place_right_after: fresh.status === 200 ? 'in at once' : `${fresh.status}, Retry-After ${fresh.retry} s`,
    bench_seconds: Math.round(realSeconds),
  };
}

const scenarios: Scenario[] = [
  { name: 'one address, account admin', guess: () => ({ account: 'admin', ip: '198.51.100.1' }) },
  { name: '50 addresses, account admin', guess: (i) => ({ account: 'admin', ip: `198.51.100.${(i % 50) + 1}` }) },
  { name: 'one address, 1,000 account names (spraying)', guess: (i) => ({ account: `user_${i}`, ip: '198.51.100.200' }) },
];
// `node --import tsx bench/login-guessing.ts 2` runs the second scenario only (they take minutes each).
const only = process.argv.slice(2).map(Number);
for (const [k, s] of scenarios.entries()) if (!only.length || only.includes(k + 1)) console.log(JSON.stringify(await run(s)));
await app.close();
await database.close();
