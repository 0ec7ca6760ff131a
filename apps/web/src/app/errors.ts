/**
 * Global error handling (spec §8): uncaught errors and unhandled rejections are logged; a failed preload
 * of a lazily loaded screen (Vite's `vite:preloadError`) is logged and left to reject, so the screen's
 * error boundary shows "Resource error, please contact administrator" with a retry.
 * The last errors are kept in memory (`window.__dauErrors`) for support and browser tests.
 */
export interface LoggedError {
  kind: 'error' | 'rejection' | 'preload';
  message: string;
  at: string;
}

const MAX_KEPT = 50;
const kept: LoggedError[] = [];

export function logError(kind: LoggedError['kind'], err: unknown) {
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  kept.push({ kind, message, at: new Date().toISOString() });
  if (kept.length > MAX_KEPT) kept.shift();
  console.error(`[dau:${kind}]`, err);
}

/** Whether an error is a chunk that could not be fetched (a new deployment, a dropped connection). */
export function isChunkLoadError(err: unknown): boolean {
  const text = err instanceof Error ? `${err.name} ${err.message}` : String(err);
  return /dynamically imported module|Importing a module script failed|error loading dynamically|preload|ChunkLoadError|Failed to fetch/i.test(
    text,
  );
}

let installed = false;

export function installGlobalErrorHandlers() {
  if (installed) return;
  installed = true;
  (window as unknown as { __dauErrors: LoggedError[] }).__dauErrors = kept;
  window.addEventListener('error', (e) => logError('error', e.error ?? e.message));
  window.addEventListener('unhandledrejection', (e) => logError('rejection', e.reason));
  window.addEventListener('vite:preloadError', (e) => logError('preload', (e as Event & { payload?: unknown }).payload));
}
