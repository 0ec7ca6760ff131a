/**
 * In-app messaging and app versions (issue 15, MSG): pure rules shared by the server and the console.
 */

/** "1.4.2" → [1, 4, 2]; null when it is not dotted numbers (at most 4 parts). */
export function parseAppVersion(input: unknown): number[] | null {
  if (typeof input !== 'string') return null;
  const s = input.trim().replace(/^v/i, '');
  if (!/^\d{1,6}(\.\d{1,6}){0,3}$/.test(s)) return null;
  return s.split('.').map(Number);
}

/** Compares two versions part by part, missing parts being 0 ("1.2" = "1.2.0"). Invalid versions sort first. */
export function compareAppVersions(a: string, b: string): number {
  const x = parseAppVersion(a);
  const y = parseAppVersion(b);
  if (!x || !y) return (x ? 1 : 0) - (y ? 1 : 0);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export interface PublishedVersion {
  version: string;
  versionCode: number;
  forceUpdate: boolean;
}

/**
 * What an app running `current` is told: the newest published version, and 'forced' when any version
 * newer than `current` forces the update (a forced release cannot be skipped by publishing a later
 * optional one), 'optional' when there is a newer one, else 'none'.
 */
export function appUpdateFor<T extends PublishedVersion>(current: string, published: readonly T[]): { latest: T | null; update: 'none' | 'optional' | 'forced' } {
  const valid = published.filter((p) => parseAppVersion(p.version));
  const latest = valid.reduce<T | null>((best, p) => {
    if (!best) return p;
    const c = compareAppVersions(p.version, best.version);
    return c > 0 || (c === 0 && p.versionCode > best.versionCode) ? p : best;
  }, null);
  const newer = valid.filter((p) => compareAppVersions(p.version, current) > 0);
  if (!newer.length) return { latest, update: 'none' };
  return { latest, update: newer.some((p) => p.forceUpdate) ? 'forced' : 'optional' };
}
