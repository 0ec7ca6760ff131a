import fs from 'node:fs';
import path from 'node:path';

/**
 * The checkout's root (the folder of the workspace's package.json): the same from the TypeScript sources
 * (apps/server/src/…, run by tsx in development and tests) and from the compiled bundle
 * (apps/server/dist/main.js, what `npm start` runs), whose depth differs.
 */
function findRoot(from: string): string {
  for (let dir = from; ; ) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { workspaces?: unknown };
      if (pkg.workspaces) return dir;
    } catch {
      /* no package file here */
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no workspace root above ${from}`);
    dir = up;
  }
}

export const ROOT = findRoot(import.meta.dirname);
/** The migrations drizzle-kit writes (apps/server/drizzle). */
export const MIGRATIONS_FOLDER = path.join(ROOT, 'apps/server/drizzle');
