/**
 * Each engine for what it proves (issue 24). Every API test file runs on PostgreSQL, the production
 * engine. On the embedded PGlite (the `npm start` default) run the files whose behaviour depends on the
 * engine. Every module's smoke on PGlite is the browser phase: each browser file's server runs on PGlite
 * (start-up, migrations, demo data and the screens of its module, through the API), so the API files no
 * longer run a second time on PGlite as one smoke per module (281 of the run's 4,416 file-seconds, for
 * what the browser files already walk). When no PostgreSQL answers, scripts/test.mjs runs every file on
 * PGlite instead. The bus between processes (bus-listener, margins-bus: two processes on one PostgreSQL)
 * has nothing to show on PGlite, whose bus is local to its one process: socket and session-cache prove
 * that one.
 */
export const PGLITE_FILES: Readonly<Record<string, string>> = {
  // What differs between the engines
  'jobs.test.ts': "the job queue's executor: in-process on PGlite, one connection, its own locking",
  'casino-hot-batch.test.ts': "the casino wallet's hot statements: prepared on PostgreSQL, plain queries on PGlite",
  'feed-store.test.ts': "the feed store's upserts and JSON statements",
  'feed-archive.test.ts': "the match archive's moving statements (DELETE … RETURNING into INSERT), row locks skipped and the view over both tables",
  'access-declaration.test.ts': 'builds the app on a PGlite it opens itself',
  'tron-keys.test.ts': "the embedded default keeps the wallets' master key in its data folder",
  'files.test.ts': "uploads kept in the embedded default's data folder",
  'session-cache.test.ts': 'sessions read through the cache and the bus',
  'socket.test.ts': "the console's socket over the local bus",
};

/**
 * API files that run each in a fresh module registry (vitest's isolation). The other files share their
 * worker's loaded modules, file after file (`isolate: false`): loading the server's modules again for
 * every file cost about 3 s of CPU per file (258 CPU-seconds of the PostgreSQL phase). These files change
 * what is process-wide on purpose, so they keep a registry of their own.
 */
export const ISOLATED_FILES: Readonly<Record<string, string>> = {
  'telegram.test.ts': "points the module's Telegram API root at its sandbox",
  'push.test.ts': "points the module's FCM endpoints at its sandbox",
  'tron-keys.test.ts': "sets the process's wallet key wrapper",
  'tron-node.test.ts': "points the process's TRON node at its sandbox",
  'tron-wallets.test.ts': "points the process's TRON node at its sandbox, then at nothing",
  'tron-withdrawals.test.ts': "points the process's TRON node at its sandbox; DAU_TRON_WATCHER=0 for the file",
  'tron-sweeps.test.ts': 'DAU_TRON_WATCHER=0 for the file',
  'tron-console.test.ts': 'DAU_TRON_WATCHER=0 for the file',
  'tron-watcher.test.ts': 'DAU_TRON_WATCHER=0 for the file',
  'tron-crash.test.ts': "the TRON sandbox node of its server processes",
  'files.test.ts': 'DAU_ALLOW_PRIVATE_ENDPOINTS set and removed between cases',
  'messaging.test.ts': 'DAU_MESSAGE_CHUNK for the file',
  'operations.test.ts': 'metrics and probe tokens in the environment for the file',
};
