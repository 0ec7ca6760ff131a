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
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
