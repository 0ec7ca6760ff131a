import { defineConfig } from 'vitest/config';

// One config, several projects: `npm test` (scripts/test.mjs) picks which run where.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'domain', include: ['packages/*/test/**/*.test.ts'], environment: 'node' } },
      { test: { name: 'web', include: ['apps/web/test/**/*.test.ts'], environment: 'node' } },
      {
        test: {
          name: 'server',
          include: ['apps/server/test/**/*.test.ts'],
          environment: 'node',
          // Migrations and seed once per run; each file starts from a copy (test/global-setup.ts).
          globalSetup: ['apps/server/test/global-setup.ts'],
          // Hang guards, not budgets: a busy 2-core CI machine takes minutes to set up a file's app.
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          // Hang guards only: every wait inside a test polls for a state (e2e/support), so a slow or busy
          // machine takes longer but does not fail; these bound a test that would never end.
          testTimeout: 600_000,
          hookTimeout: 600_000,
          // The servers' data folders, migrated and seeded once per run (e2e/support/global-setup.ts).
          globalSetup: ['e2e/support/global-setup.ts'],
          fileParallelism: false,
        },
      },
    ],
  },
});
