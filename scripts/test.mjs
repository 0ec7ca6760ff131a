#!/usr/bin/env node
/**
 * `npm test`: every test of the project, on a fresh machine, in one vitest run whose workers (one more than
 * the cores) take the longest files first, whatever their kind (a browser file waits on its server and
 * Chromium, a crash file on its child processes: another worker fills the core):
 *  - domain and web unit tests;
 *  - on embedded PostgreSQL (PGlite) the API files whose behaviour depends on the engine
 *    (apps/server/test/engines.ts; projects `server-pglite*`; the browser files' servers are every module's smoke on it);
 *  - every API file on PostgreSQL (projects `server*`): TEST_DATABASE_URL when set, else the local server
 *    (postgres://postgres@127.0.0.1:5432/postgres) whenever pg_isready says it answers; in CI the local
 *    cluster is started when it is not running. When no PostgreSQL can be used, every API file runs on
 *    PGlite instead and a loud banner says the concurrency cases did not run (outside CI the run still
 *    passes; in CI it fails);
 *  - browser tests in Debian's Chromium (installed with apt when missing) on the console built first;
 *  - the odds feed's files over the local RabbitMQ (Debian's rabbitmq-server, installed with apt and started
 *    when missing), in its sandbox virtual host `dau-uof`.
 * `npm run test:e2e` runs the browser files only. Prints the time of the build and of the run, per
 * project its cases, runs and the seconds its files took, the ten slowest files, then the skipped count
 * (if any) on its own line, and as the very last line exactly: "tests: N passed, N failed".
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';

const root = path.resolve(import.meta.dirname, '..');
const onlyE2e = process.argv.includes('e2e');
const ci = process.env.CI === 'true' || process.env.CI === '1';
const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres';
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = 0;
/** [phase, seconds, outcome] of every phase, printed at the end. */
const phases = [];
/** [project, its counts and seconds] of the test run. */
const projectRows = [];
/** Every case that ran (file and full name: a case run on both engines counts once), and each file's time. */
const cases = new Set();
const files = [];
/** Repeated just above the closing lines, where nobody misses them. */
const warnings = [];

/** Runs one phase and records how long it took. */
function phase(name, fn) {
  const start = process.hrtime.bigint();
  const before = failedSteps;
  console.log(`\n=== ${name} ===`);
  fn();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  phases.push([name, seconds, failedSteps === before ? 'ok' : 'FAILED']);
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

/** One vitest run of these projects; adds its outcome to the totals and the summary. */
function vitest(projects, env = {}) {
  const out = path.join(os.tmpdir(), `dau-vitest-${process.pid}.json`);
  fs.rmSync(out, { force: true });
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=./scripts/test-reporter.ts'];
  const code = run('npx', args, { ...env, DAU_TEST_SUMMARY: out });
  let summary;
  try {
    summary = JSON.parse(fs.readFileSync(out, 'utf8'));
  } catch {
    console.error('no summary from the test run (it crashed)');
    failedSteps++;
    return;
  }
  for (const [name, p] of Object.entries(summary.projects)) {
    totals.passed += p.passed;
    totals.failed += p.failed;
    totals.skipped += p.skipped;
    projectRows.push([name, p]);
  }
  for (const c of summary.cases) cases.add(c);
  files.push(...summary.files);
  for (const m of summary.failedModules) console.error(`failed outside its cases: ${m}`);
  if (Object.keys(summary.projects).length === 0) {
    console.error('no test ran');
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

/** Runs a command as root (sudo when not root). */
const asRoot = (cmd, args, env = {}) => (process.getuid?.() === 0 ? run(cmd, args, env) : run('sudo', [cmd, ...args], env));
const rabbitUp = () => spawnSync('bash', ['-c', 'exec 3<>/dev/tcp/127.0.0.1/5672'], { stdio: 'ignore' }).status === 0;

/**
 * The local RabbitMQ the odds feed's tests publish to (the sandbox UOF): installed with apt and started
 * when missing, then its virtual host `dau-uof` made (idempotent). The vhost commands run in the
 * background (rabbitmqctl takes seconds): the returned promise settles before the tests start.
 */
function ensureRabbit() {
  if (!rabbitUp()) {
    if (!fs.existsSync('/usr/sbin/rabbitmq-server')) {
      console.log('RabbitMQ is missing: installing Debian\'s rabbitmq-server for the odds feed tests...');
      asRoot('apt-get', ['update'], { DEBIAN_FRONTEND: 'noninteractive' });
      asRoot('apt-get', ['install', '-y', '--no-install-recommends', 'rabbitmq-server'], { DEBIAN_FRONTEND: 'noninteractive' });
    }
    console.log('RabbitMQ is not answering: starting it (rabbitmq-server -detached)...');
    asRoot('rabbitmq-server', ['-detached']);
    for (let i = 0; i < 120 && !rabbitUp(); i++) spawnSync('sleep', ['1']);
    if (!rabbitUp()) {
      warnings.push('RabbitMQ did not start: the odds feed tests over AMQP fail');
      return Promise.resolve(false);
    }
  }
  const script = 'rabbitmqctl -q add_vhost dau-uof 2>/dev/null; rabbitmqctl -q set_permissions -p dau-uof guest ".*" ".*" ".*"';
  return new Promise((resolve) => {
    const child = process.getuid?.() === 0 ? spawn('bash', ['-c', script], { stdio: 'inherit' }) : spawn('sudo', ['bash', '-c', script], { stdio: 'inherit' });
    child.on('exit', (code) => resolve(code === 0));
    child.on('error', () => resolve(false));
  });
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

const rabbit = onlyE2e ? Promise.resolve(true) : ensureRabbit();
const projects = [];
let runEnv = { TEST_DATABASE_URL: '' };
if (!onlyE2e) {
  // PostgreSQL: the configured one, else the local server whenever it answers (not only in CI), so the
  // concurrency cases (row locks, SKIP LOCKED, parallel transactions) run wherever they can.
  const pgUrl = process.env.TEST_DATABASE_URL || LOCAL_PG;
  const explicit = !!process.env.TEST_DATABASE_URL;
  const pgOk = ensurePostgres(pgUrl, ci || explicit);
  projects.push('domain', 'web', 'server', 'server-isolated');
  if (pgOk) {
    // Every API file on PostgreSQL, and on PGlite what depends on the engine
    // (vitest.config.ts gives each project its engine).
    projects.push('server-pglite', 'server-pglite-isolated');
    runEnv = { TEST_DATABASE_URL: pgUrl };
    console.log(`API files on PostgreSQL at ${pgUrl.replace(/\/\/([^:@/]+):[^@]*@/, '//$1:***@')} and, those that depend on the engine, on PGlite`);
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

let browser = true;
if (!ensureChromium()) {
  console.error('Could not install Chromium: the browser tests cannot run');
  failedSteps++;
  browser = false;
} else {
  phase('console and server build', () => {
    if (run('npm', ['run', 'build']) !== 0) failedSteps++;
  });
  if (phases.at(-1)[2] !== 'ok') browser = false;
}
if (browser) projects.push('e2e');
if (!(await rabbit)) warnings.push('the RabbitMQ virtual host dau-uof could not be made: the odds feed tests over AMQP fail');
phase(onlyE2e ? 'browser tests (Chromium)' : 'tests (every project, one run)', () => vitest(projects, runEnv));

console.log('\n=== slowest files ===');
for (const [file, seconds] of files.sort((a, b) => b[1] - a[1]).slice(0, 10)) console.log(`${seconds.toFixed(1).padStart(8)} s  ${file}`);
console.log('\n=== projects (seconds: their files summed; the workers share them) ===');
for (const [name, p] of projectRows) console.log(`${p.seconds.toFixed(0).padStart(7)} s  ${String(p.files).padStart(4)} files  ${String(p.runs).padStart(5)} runs  ${p.failed ? `${p.failed} FAILED` : 'ok'}  ${name}`);
console.log('\n=== phases ===');
for (const [name, seconds, outcome] of phases) console.log(`${seconds.toFixed(1).padStart(8)} s  ${outcome.padEnd(6)}  ${name}`);
console.log(`distinct cases: ${cases.size} (a case run on both engines counts once)`);
for (const w of warnings) console.log(`WARNING: ${w}`);
if (failedSteps) console.log(`${failedSteps} step(s) failed (see above)`);
if (totals.skipped) console.log(`skipped: ${totals.skipped}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(failedSteps || totals.failed ? 1 : 0);
