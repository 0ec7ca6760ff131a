/**
 * What the console makes a browser download (issue 11: "the login page ≤ 300 KB, the landing page ≤ 500 KB
 * gzip"), read from the built console: `npm run build`, then `node --import tsx bench/console-bundle.ts`.
 * Starts nothing. From Vite's manifest (apps/web/dist/.vite/manifest.json) it takes, for each route, the
 * entry (index.html) with its static imports and CSS, plus the lazy modules the route loads and their
 * static imports, and prints every file with its raw and gzip size (zlib, default level, as the browser
 * test in e2e/betting.test.ts measures the real responses; the two agree to the byte).
 *
 * Routes:
 *  - login: a visitor opens #/admin_login (the sign-in page);
 *  - landing, as first seen: a signed-in admin opens the console (#/customer → today_statistics): the
 *    shell, the screen and its texts, what it takes to show the figures (the issue's 500 KB);
 *  - landing, complete: the same with ECharts, which a chart fetches once it is near the viewport and the
 *    browser is idle after showing the figures (on a 1280×900 screen the charts' top edge is in the first
 *    screen, so it follows at once; on a phone when scrolled to);
 *  - sign-in path: login, then the complete landing page after signing in (each file counted once).
 * Prints figures; never a gate (the browser test holds the limits).
 *
 * Figures (2026-11-25, gzip of JS and CSS): before issue 11's work login 355.7 KB (14 files), landing
 * 795.1 KB (29 files, texts of all three languages); then login 296.2 KB (28 files), landing 557.2 KB
 * (43 files), of which ECharts 183.5 KB; with the statistics screens and the bet ticker on an own panel
 * instead of antd's Card (which brings Tabs) and ECharts loaded by the charts as they come into view:
 * landing as first seen 359.0 KB (39 files), complete 542.5 KB (40 files), login 296.2 KB.
 * `DAU_WEB_DIST=<dist>` measures another build (built with `npx vite build --manifest`).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const ROOT = path.resolve(import.meta.dirname, '..');
// DAU_WEB_DIST: another build to measure (an older checkout's apps/web/dist, built with --manifest).
const DIST = process.env.DAU_WEB_DIST ?? path.join(ROOT, 'apps/web/dist');
const MANIFEST = path.join(DIST, '.vite/manifest.json');

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}

if (!fs.existsSync(MANIFEST)) {
  console.error(`No ${path.relative(ROOT, MANIFEST)}: run \`npm run build\` first.`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Record<string, ManifestChunk>;

/** The files a module loads before it runs: its chunk, its CSS, and (recursively) its static imports. */
function filesOf(key: string, into = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the manifest: the route list of bench/console-bundle.ts is out of date`);
  if (into.has(chunk.file)) return into;
  into.add(chunk.file);
  for (const css of chunk.css ?? []) into.add(css);
  for (const dep of chunk.imports ?? []) filesOf(dep, into);
  return into;
}

/** The manifest keys of the lazy modules whose source path matches. */
const lazy = (...patterns: RegExp[]) =>
  Object.keys(manifest).filter((k) => manifest[k].isDynamicEntry && patterns.some((p) => p.test(k)));

const ENTRY = 'index.html';
const LANGUAGE = 'en-US';
/** The texts of one language that a screen area loads with its chunk (src/locales/<lang>/<area>.ts). */
const texts = (...areas: string[]) => lazy(...areas.map((a) => new RegExp(`^src/locales/${LANGUAGE}/${a}\\.ts$`)));

/** The product's messages in the language shown (src/app/spec-messages.ts), loaded before the first render. */
const MESSAGES = `virtual:spec-messages/${LANGUAGE}`;
const LOGIN = [ENTRY, MESSAGES, 'src/pages/auth/LoginPage.tsx'];
const LANDING_FIRST_SEEN = [
  ENTRY,
  MESSAGES,
  'src/app/shell/index.ts',
  'src/pages/statistics/TodayStatisticsPage.tsx',
  // The shell's texts and the screen's, in the language shown.
  ...texts('menu', 'system', 'statistics', 'betting'),
];
const LANDING = [...LANDING_FIRST_SEEN, 'src/pages/statistics/echarts.ts'];
const ROUTES: [string, string[]][] = [
  ['login', LOGIN],
  ['landing, as first seen (figures)', LANDING_FIRST_SEEN],
  ['landing, complete (with the charts)', LANDING],
  ['sign-in path (login + landing)', [...LOGIN, ...LANDING]],
];
const LIMITS: Record<string, number> = { login: 300_000, 'landing, as first seen (figures)': 500_000 };

const sizes = new Map<string, { raw: number; gzip: number }>();
function sizeOf(file: string) {
  let s = sizes.get(file);
  if (!s) {
    const body = fs.readFileSync(path.join(DIST, file));
    s = { raw: body.length, gzip: zlib.gzipSync(body).length };
    sizes.set(file, s);
  }
  return s;
}

const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
for (const [name, keys] of ROUTES) {
  const files = new Set<string>();
  for (const k of keys) filesOf(k, files);
  const rows = [...files].map((f) => ({ file: f, ...sizeOf(f) })).sort((a, b) => b.gzip - a.gzip);
  const raw = rows.reduce((s, r) => s + r.raw, 0);
  const gzip = rows.reduce((s, r) => s + r.gzip, 0);
  const limit = LIMITS[name];
  console.log(`\n${name}: ${rows.length} files, ${kb(raw)} raw, ${kb(gzip)} gzip${limit ? ` (limit ${kb(limit)}${gzip > limit ? ', OVER' : ''})` : ''}`);
  console.log(`  ${'file'.padEnd(52)} ${'raw'.padStart(10)} ${'gzip'.padStart(10)}`);
  for (const r of rows) console.log(`  ${r.file.padEnd(52)} ${kb(r.raw).padStart(10)} ${kb(r.gzip).padStart(10)}`);
}
