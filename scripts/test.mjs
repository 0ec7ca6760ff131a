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
 * The three run side by side (each phase's output printed whole when it ends; DAU_TEST_SERIAL=1 runs them
 * one after the other). `npm run test:e2e` runs step 3 only. Prints how long each phase took with its cases and runs, the ten
 * slowest files, then the skipped count (if any) on its own line, and as the very last line exactly:
 * "tests: N passed, N failed".
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';

const root = path.resolve(import.meta.dirname, '..');
const onlyE2e = process.argv.includes('e2e');
const ci = process.env.CI === 'true' || process.env.CI === '1';
/** `DAU_TEST_SERIAL=1`: one phase after the other, each printing as it goes (easier to read, slower). */
const serial = process.env.DAU_TEST_SERIAL === '1';
const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = 0;
const runStart = process.hrtime.bigint();
const since = () => Number(process.hrtime.bigint() - runStart) / 1e9;
/** [phase, started (s into the run), seconds, outcome, runs] of every phase, printed at the end. */
const phases = [];
/** Every case that ran (file and full name: a case run on both engines counts once), and each file's time. */
const cases = new Set();
const files = [];
/** Repeated just above the closing lines, where nobody misses them. */
const warnings = [];

/** The phases under way; while phases run side by side, a line every minute says which (their output comes when they end). */
const running = new Set();
const heartbeat = serial ? null : setInterval(() => running.size && console.log(`... ${since().toFixed(0)} s: ${[...running].join('; ')}`), 60_000);

/**
 * Runs one phase and records when it started and how long it took. Phases may run side by side (the
 * default): a phase's output is then kept in a file and printed whole when it ends, so that the output of
 * two phases never interleaves; `DAU_TEST_SERIAL=1` runs them one by one, printing as they go.
 */
async function phase(name, fn) {
  const started = since();
  running.add(name);
  const step = { failed: 0, runs: 0, log: serial ? null : path.join(os.tmpdir(), `dau-test-${process.pid}-${phases.length}-${name.replace(/\W+/g, '-')}.log`) };
  console.log(serial ? `\n=== ${name} ===` : `\n>>> ${name}: started at ${started.toFixed(0)} s`);
  await fn(step);
  const seconds = since() - started;
  running.delete(name);
  failedSteps += step.failed;
  phases.push([name, started, seconds, step.failed ? 'FAILED' : 'ok', step.runs]);
  if (step.log) {
    console.log(`\n=== ${name} ===`);
    if (fs.existsSync(step.log)) {
      process.stdout.write(fs.readFileSync(step.log));
      fs.rmSync(step.log, { force: true });
    }
  }
  console.log(`--- ${name}: ${seconds.toFixed(1)} s`);
  return !step.failed;
}

function banner(lines) {
  const width = Math.max(...lines.map((l) => l.length));
  const bar = '!'.repeat(width + 4);
  console.error(`\n${bar}\n${lines.map((l) => `! ${l.padEnd(width)} !`).join('\n')}\n${bar}\n`);
}

/** Runs a command of a phase: its output to the terminal (serial) or to the phase's log. Answers the exit code. */
function run(step, cmd, args, env = {}) {
  return new Promise((resolve) => {
    const out = step.log ? fs.openSync(step.log, 'a') : 'inherit';
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', out, out], env: { ...process.env, FORCE_COLOR: step.log ? '0' : process.env.FORCE_COLOR, ...env } });
    child.on('error', () => resolve(1));
    child.on('exit', (code) => {
      if (typeof out === 'number') fs.closeSync(out);
      resolve(code ?? 1);
    });
  });
}

async function vitest(step, label, projects, env = {}) {
  const out = path.join(os.tmpdir(), `dau-vitest-${process.pid}-${label}.json`);
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile=${out}`];
  const code = await run(step, 'npx', args, env);
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
        step.runs++;
        cases.add(`${file} > ${a.fullName}`);
      }
    }
    if (j.numTotalTests === 0) {
      console.error(`${label}: no test ran`);
      step.failed++;
    }
  } catch {
    console.error(`${label}: no report (the run crashed)`);
    step.failed++;
  }
  if (code !== 0) step.failed++;
}

function ensureChromium() {
  // Chinese text in screenshots needs a CJK font; the tests themselves read text, not pixels.
  if (fs.existsSync('/usr/bin/chromium') && fs.existsSync('/usr/share/fonts/opentype/noto')) return true;
  console.log('Chromium is missing: installing Debian\'s chromium package for the browser tests...');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const apt = (...args) => spawnSync(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), ...args], { cwd: root, stdio: 'inherit', env }).status === 0;
  return apt('update') && apt('install', '-y', '--no-install-recommends', 'chromium', 'fonts-noto-cjk');
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

/**
 * Three lines of work, side by side unless DAU_TEST_SERIAL=1: (1) the domain, web and PGlite API files,
 * (2) every API file on PostgreSQL, (3) the console build and then the browser files. They share nothing
 * (own databases, own servers and ports) and every test waits on state, so running them together only
 * makes each slower, while the machine's two cores stay busy: the PostgreSQL files spend much of their
 * time waiting (on jobs, on server processes they kill and restart), the browser files on the console.
 * On a 2-core machine the lines share the cores: one worker for the PGlite files, two for the others.
 */
const lines = [];
const workers = (n) => (serial || process.env.DAU_TEST_WORKERS ? {} : { DAU_TEST_WORKERS: String(n) });

if (!onlyE2e) {
  // PostgreSQL: the configured one, else the local server whenever it answers (not only in CI), so the
  // concurrency cases (row locks, SKIP LOCKED, parallel transactions) run wherever they can.
  const pgUrl = process.env.TEST_DATABASE_URL || LOCAL_PG;
  const explicit = !!process.env.TEST_DATABASE_URL;
  const pgOk = ensurePostgres(pgUrl, ci || explicit);
  // On PGlite: what depends on the engine and a smoke per module, or every API file when PostgreSQL is missing.
  const pglite = () =>
    phase('domain, web and API on embedded PostgreSQL (PGlite)', (step) =>
      vitest(step, 'pglite', ['domain', 'web', pgOk ? 'server-pglite' : 'server'], { TEST_DATABASE_URL: '', ...workers(pgOk ? 1 : 2) }),
    );
  if (pgOk) {
    const postgres = () =>
      phase(`API on PostgreSQL (${pgUrl.replace(/\/\/([^:@/]+):[^@]*@/, '//$1:***@')})`, (step) => vitest(step, 'postgresql', ['server'], { TEST_DATABASE_URL: pgUrl, ...workers(2) }));
    lines.push(serial ? pglite().then(postgres) : pglite(), serial ? Promise.resolve() : postgres());
  } else {
    banner([
      `NO POSTGRESQL: nothing answers at ${pgUrl} (pg_isready).`,
      'The API suites ran on embedded PGlite only; the concurrency cases',
      '(money-concurrency, payments-concurrency, ...) were SKIPPED.',
      'Start PostgreSQL or set TEST_DATABASE_URL to run them.',
    ]);
    if (ci || explicit) failedSteps++;
    warnings.push(`NO POSTGRESQL at ${pgUrl}: the concurrency cases were skipped`);
    lines.push(pglite());
  }
}

const browser = async () => {
  if (!ensureChromium()) {
    console.error('Could not install Chromium: the browser tests cannot run');
    failedSteps++;
    return;
  }
  const built = await phase('console build', async (step) => {
    if ((await run(step, 'npm', ['run', 'build'])) !== 0) step.failed++;
  });
  if (built) await phase('browser tests (Chromium)', (step) => vitest(step, 'browser', ['e2e'], { TEST_DATABASE_URL: '', ...workers(2) }));
};
// Serially, the browser line starts once the API lines have ended.
await (serial ? Promise.all(lines).then(browser) : Promise.all([...lines, browser()]));
if (heartbeat) clearInterval(heartbeat);

console.log('\n=== slowest files ===');
for (const [file, seconds] of files.sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`${seconds.toFixed(1).padStart(8)} s  ${file}`);
console.log('\n=== phases (started at, took) ===');
for (const [name, started, seconds, outcome, runs] of phases) console.log(`${started.toFixed(0).padStart(6)} s ${seconds.toFixed(1).padStart(8)} s  ${outcome.padEnd(6)}  ${String(runs).padStart(5)} runs  ${name}`);
console.log(`whole run: ${since().toFixed(1)} s`);
console.log(`distinct cases: ${cases.size} (a case run on both engines counts once)`);
for (const w of warnings) console.log(`WARNING: ${w}`);
if (failedSteps) console.log(`${failedSteps} step(s) failed (see above)`);
if (totals.skipped) console.log(`skipped: ${totals.skipped}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps || totals.failed ? 1 : 0);
