#!/usr/bin/env node
/**
 * `npm test`: every test of the project, on a fresh machine.
 *  1. domain and web unit tests, and on embedded PostgreSQL (PGlite) the API files whose behaviour
 *     depends on the engine plus one smoke per module (apps/server/test/engines.ts);
 *  2. every API file on PostgreSQL: TEST_DATABASE_URL when set, else the local server
 *     (postgres://postgres@127.0.0.1:5432/postgres) whenever pg_isready says it answers; in CI the local
 *     cluster is started when it is not running. When no PostgreSQL can be used, every API file runs on
 *     PGlite instead and a loud banner says the concurrency cases did not run (outside CI the run still
 *     passes; in CI it fails);
 *  3. the console build, then browser tests in Debian's Chromium (installed with apt when missing).
 * `npm run test:e2e` runs step 3 only. Prints how long each phase took with its cases and runs, the ten
 * slowest files, then the skipped count (if any) on its own line, and as the very last line exactly:
 * "tests: N passed, N failed".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';

const root = path.resolve(import.meta.dirname, '..');
const onlyE2e = process.argv.includes('e2e');
const ci = process.env.CI === 'true' || process.env.CI === '1';
const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = 0;
/** [phase, seconds, outcome, runs] of every phase, printed at the end. */
const phases = [];
/** Every case that ran (file and full name: a case run on both engines counts once), and each file's time. */
const cases = new Set();
const files = [];
let phaseRuns = 0;
/** Repeated just above the closing lines, where nobody misses them. */
const warnings = [];

/** Runs one phase and records how long it took. */
function phase(name, fn) {
  const start = process.hrtime.bigint();
  const before = failedSteps;
  phaseRuns = 0;
  console.log(`\n=== ${name} ===`);
  fn();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  phases.push([name, seconds, failedSteps === before ? 'ok' : 'FAILED', phaseRuns]);
  console.log(`--- ${name}: ${seconds.toFixed(1)} s`);
}

function banner(lines) {
  const width = Math.max(...lines.map((l) => l.length));
  const bar = '!'.repeat(width + 4);
  console.error(`\n${bar}\n${lines.map((l) => `! ${l.padEnd(width)} !`).join('\n')}\n${bar}\n`);
}

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function vitest(label, projects, env = {}) {
  const out = path.join(os.tmpdir(), `dau-vitest-${process.pid}-${label}.json`);
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile=${out}`];
  const code = run('npx', args, env);
  try {
    const j = JSON.parse(fs.readFileSync(out, 'utf8'));
    totals.passed += j.numPassedTests;
    totals.failed += j.numFailedTests;
    const skipped = (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
    totals.skipped += skipped;
    if (skipped) console.log(`${label}: ${skipped} skipped`);
    for (const f of j.testResults ?? []) {
      const file = path.relative(root, f.name);
      files.push([`${file} (${label})`, ((f.endTime ?? 0) - (f.startTime ?? 0)) / 1000]);
      for (const a of f.assertionResults ?? []) {
        if (a.status !== 'passed' && a.status !== 'failed') continue;
        phaseRuns++;
        cases.add(`${file} > ${a.fullName}`);
      }
    }
    if (j.numTotalTests === 0) {
      console.error(`${label}: no test ran`);
      failedSteps++;
    }
  } catch {
    console.error(`${label}: no report (the run crashed)`);
    failedSteps++;
  }
  if (code !== 0) failedSteps++;
}

function ensureChromium() {
  // Chinese text in screenshots needs a CJK font; the tests themselves read text, not pixels.
  // The headless shell (Debian's chromium-headless-shell) drives the tests: the same Chromium, less CPU.
  if (fs.existsSync('/usr/bin/chromium-headless-shell') && fs.existsSync('/usr/share/fonts/opentype/noto')) return true;
  console.log('Chromium is missing: installing Debian\'s chromium-headless-shell package for the browser tests...');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  if (run(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update'], env) !== 0) return false;
  return run(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'install', '-y', '--no-install-recommends', 'chromium-headless-shell', 'fonts-noto-cjk'], env) === 0;
}

const pgReady = (url) => spawnSync('pg_isready', ['-d', url], { stdio: 'ignore' }).status === 0;

/** Whether PostgreSQL answers at `url`; in CI, starts the local cluster when it does not. */
function ensurePostgres(url, start) {
  const ready = () => pgReady(url);
  if (ready()) return true;
  if (!start) return false;
  console.log('PostgreSQL is not answering: starting the local cluster...');
  const versions = fs.existsSync('/etc/postgresql') ? fs.readdirSync('/etc/postgresql') : [];
  for (const v of versions) spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', v, 'main', 'start'], { stdio: 'inherit' });
  for (let i = 0; i < 30 && !ready(); i++) spawnSync('sleep', ['1']);
  return ready();
}

if (!onlyE2e) {
  // PostgreSQL: the configured one, else the local server whenever it answers (not only in CI), so the
  // concurrency cases (row locks, SKIP LOCKED, parallel transactions) run wherever they can.
  const pgUrl = process.env.TEST_DATABASE_URL || LOCAL_PG;
  const explicit = !!process.env.TEST_DATABASE_URL;
  const pgOk = ensurePostgres(pgUrl, ci || explicit);
  // On PGlite: what depends on the engine and a smoke per module, or every API file when PostgreSQL is missing.
  phase('domain, web and API on embedded PostgreSQL (PGlite)', () => vitest('pglite', ['domain', 'web', ...(pgOk ? ['server-pglite', 'server-pglite-isolated'] : ['server', 'server-isolated'])], { TEST_DATABASE_URL: '' }));
  if (pgOk) {
    phase(`API on PostgreSQL (${pgUrl.replace(/\/\/([^:@/]+):[^@]*@/, '//$1:***@')})`, () => vitest('postgresql', ['server', 'server-isolated'], { TEST_DATABASE_URL: pgUrl }));
  } else {
    banner([
      `NO POSTGRESQL: nothing answers at ${pgUrl} (pg_isready).`,
      'The API suites ran on embedded PGlite only; the concurrency cases',
      '(money-concurrency, payments-concurrency, ...) were SKIPPED.',
      'Start PostgreSQL or set TEST_DATABASE_URL to run them.',
    ]);
    if (ci || explicit) failedSteps++;
    warnings.push(`NO POSTGRESQL at ${pgUrl}: the concurrency cases were skipped`);
  }
}

if (!ensureChromium()) {
  console.error('Could not install Chromium: the browser tests cannot run');
  failedSteps++;
} else {
  phase('console build', () => {
    if (run('npm', ['run', 'build']) !== 0) failedSteps++;
  });
  if (phases.at(-1)[2] === 'ok') phase('browser tests (Chromium)', () => vitest('browser', ['e2e'], { TEST_DATABASE_URL: '' }));
}

console.log('\n=== slowest files ===');
for (const [file, seconds] of files.sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`${seconds.toFixed(1).padStart(8)} s  ${file}`);
console.log('\n=== phases ===');
for (const [name, seconds, outcome, runs] of phases) console.log(`${seconds.toFixed(1).padStart(8)} s  ${outcome.padEnd(6)}  ${String(runs).padStart(5)} runs  ${name}`);
console.log(`distinct cases: ${cases.size} (a case run on both engines counts once)`);
for (const w of warnings) console.log(`WARNING: ${w}`);
if (failedSteps) console.log(`${failedSteps} step(s) failed (see above)`);
if (totals.skipped) console.log(`skipped: ${totals.skipped}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps || totals.failed ? 1 : 0);
