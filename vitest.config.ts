import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { ISOLATED_FILES, PGLITE_FILES } from './apps/server/test/engines.ts';
import LongestFirst from './scripts/test-sequencer.ts';

/** The API test files' settings, whatever the engine. */
const api = {
  environment: 'node' as const,
  // Migrations and seed once per run; each file starts from a copy (test/global-setup.ts).
  globalSetup: ['apps/server/test/global-setup.ts'],
  // Hang guards, not budgets: a busy 2-core CI machine takes minutes to set up a file's app.
  testTimeout: 180_000,
  hookTimeout: 300_000,
};

/**
 * The engine of each API project: `server*` on TEST_DATABASE_URL (PostgreSQL; unset or empty: PGlite),
 * `server-pglite*` always on PGlite. Set per project, so one run can hold both (scripts/test.mjs runs every
 * project in one vitest run: the files of both engines and the browser share the two cores).
 */
const onPostgres = { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? '' };
const onPglite = { TEST_DATABASE_URL: '' };

const isolated = Object.keys(ISOLATED_FILES).map((f) => `apps/server/test/${f}`);
const pglite = Object.keys(PGLITE_FILES).map((f) => `apps/server/test/${f}`);

// One config, several projects: `npm test` (scripts/test.mjs) picks which run where.
export default defineConfig({
  test: {
    // One worker more than the cores: a browser file waits on its server and Chromium, a crash file on its
    // child processes, and the extra worker fills that time (fresh clone, 2 cores: 866 s with two workers,
    // 732 s with three; the cores busy 78 % and 91 % of the time). Each file has its own database copied
    // from the run's template, so files do not see each other. DAU_TEST_WORKERS overrides.
    maxWorkers: Number(process.env.DAU_TEST_WORKERS) || os.availableParallelism() + 1,
    // Longest files first (scripts/test-sequencer.ts): the workers finish together.
    sequence: { sequencer: LongestFirst },
    projects: [
      { test: { name: 'domain', include: ['packages/*/test/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'web', include: ['apps/web/test/**/*.test.ts'], environment: 'node' } },
      // Every API file (PostgreSQL). Files share their worker's loaded modules, except those that change
      // what is process-wide (test/engines.ts ISOLATED_FILES): `server-isolated`.
      { test: { name: 'server', include: ['apps/server/test/**/*.test.ts'], exclude: isolated, isolate: false, env: onPostgres, ...api } },
      { test: { name: 'server-isolated', include: isolated, env: onPostgres, ...api } },
      // The API files whose behaviour depends on the engine, and one smoke per module (test/engines.ts).
      { test: { name: 'server-pglite', include: pglite.filter((f) => !isolated.includes(f)), isolate: false, env: onPglite, ...api } },
      { test: { name: 'server-pglite-isolated', include: pglite.filter((f) => isolated.includes(f)), env: onPglite, ...api } },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          env: onPglite,
          // Hang guards only: every wait inside a test polls for a state (e2e/support), so a slow or busy
          // machine takes longer but does not fail; these bound a test that would never end.
          testTimeout: 600_000,
          hookTimeout: 600_000,
          // The servers' data folders, migrated and seeded once per run (e2e/support/global-setup.ts).
          globalSetup: ['e2e/support/global-setup.ts'],
          // Files side by side (as many as the run's workers): each has its own server (own data folder and
          // ports) and browser, and waits on state, so a busy machine only makes them slower (887 s instead
          // of about 1,600 s one by one on 2 cores). DAU_E2E_SERIAL=1 runs them one by one.
          fileParallelism: process.env.DAU_E2E_SERIAL !== '1',
          // One by one is a pool of its own, after the other projects' files (vitest wants one worker count per group).
          ...(process.env.DAU_E2E_SERIAL === '1' ? { sequence: { groupOrder: 1 } } : {}),
        },
      },
    ],
  },
});
