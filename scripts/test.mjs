#!/usr/bin/env node
/**
 * `npm test`: every test of the project, on a fresh machine.
 *  1. domain and web unit tests, API suites on embedded PostgreSQL (PGlite);
 *  2. the API suites again on PostgreSQL when TEST_DATABASE_URL is set, or in CI (starting the local
 *     server when it is not running);
 *  3. the console build, then browser tests in Debian's Chromium (installed with apt when missing).
 * `npm run test:e2e` runs step 3 only. Prints one closing line: "tests: N passed, N failed".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';

const root = path.resolve(import.meta.dirname, '..');
const onlyE2e = process.argv.includes('e2e');
const ci = process.env.CI === 'true' || process.env.CI === '1';
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedSteps = 0;

function run(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function vitest(label, projects, env = {}) {
  const out = path.join(os.tmpdir(), `dau-vitest-${process.pid}-${label}.json`);
  const args = ['vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile=${out}`];
  console.log(`\n=== ${label} ===`);
  const code = run('npx', args, env);
  try {
    const j = JSON.parse(fs.readFileSync(out, 'utf8'));
    totals.passed += j.numPassedTests;
    totals.failed += j.numFailedTests;
    totals.skipped += (j.numPendingTests ?? 0) + (j.numTodoTests ?? 0);
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
  if (fs.existsSync('/usr/bin/chromium') && fs.existsSync('/usr/share/fonts/opentype/noto')) return true;
  console.log('Chromium is missing: installing Debian\'s chromium package for the browser tests...');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  if (run(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update'], env) !== 0) return false;
  return run(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'install', '-y', '--no-install-recommends', 'chromium', 'fonts-noto-cjk'], env) === 0;
}

function ensurePostgres(url) {
  const ready = () => spawnSync('pg_isready', ['-d', url], { stdio: 'ignore' }).status === 0;
  if (ready()) return true;
  console.log('PostgreSQL is not answering: starting the local cluster...');
  const versions = fs.existsSync('/etc/postgresql') ? fs.readdirSync('/etc/postgresql') : [];
  for (const v of versions) spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', v, 'main', 'start'], { stdio: 'inherit' });
  for (let i = 0; i < 30 && !ready(); i++) spawnSync('sleep', ['1']);
  return ready();
}

if (!onlyE2e) {
  vitest('domain, web and API on embedded PostgreSQL', ['domain', 'web', 'server']);
  const pgUrl = process.env.TEST_DATABASE_URL ?? (ci ? 'postgres://postgres@127.0.0.1:5432/postgres' : '');
  if (pgUrl) {
    if (ensurePostgres(pgUrl)) vitest('API on PostgreSQL', ['server'], { TEST_DATABASE_URL: pgUrl });
    else {
      console.error(`PostgreSQL at ${pgUrl} could not be reached or started`);
      failedSteps++;
    }
  }
}

if (!ensureChromium()) {
  console.error('Could not install Chromium: the browser tests cannot run');
  failedSteps++;
} else {
  console.log('\n=== console build ===');
  if (run('npm', ['run', 'build']) !== 0) failedSteps++;
  else vitest('browser', ['e2e'], { TEST_DATABASE_URL: '' });
}

console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failedSteps || totals.failed ? 1 : 0);
