/**
 * A package loaded on first use instead of at start (issue 25: start-up and idle memory). For packages a
 * server needs only for some actions (an article's HTML, a new password, a TOTP enrolment's QR code, S3
 * storage when chosen, an FCM send): each costs tens of milliseconds to load and megabytes held for the
 * process's life. Synchronous (node's `require` of the package's CommonJS build), so callers stay as they
 * are; types come from `import type`.
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export function onFirstUse<T>(pkg: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= load(pkg) as T);
}
