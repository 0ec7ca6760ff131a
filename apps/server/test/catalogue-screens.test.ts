/**
 * The permission catalogue is whole (issue 16): every page of packages/contract/src/menu.ts has a
 * console screen (apps/web/src/app/screens.ts SCREENS, so the console never answers "Page not found")
 * and at least one API route that declares the page in its access; and the role permission tree the
 * roles' editor shows (GET /system/roles/:id/permissions) holds only groups, pages and buttons that
 * exist in the catalogue, each page with its screen.
 *
 * SCREENS is read from the source (its keys), not imported: screens.ts loads the console's texts and
 * React chunks, which have no business in a Node test.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PAGES, ALWAYS_ALLOWED_PAGES, MENU_CATALOGUE, flattenCatalogue, type MenuNode } from '@dau/contract';
import { createTestApp, type TestApp } from './helpers.js';
import { eq, sql } from 'drizzle-orm';
import { menuItems, roles } from '../src/platform/schema.js';
import { seed } from '../src/seed.js';

const SCREENS_FILE = path.resolve(import.meta.dirname, '../../web/src/app/screens.ts');

/** The keys of `export const SCREENS = { ... }` in screens.ts. */
export function screenKeys(source: string): Set<string> {
  const start = source.indexOf('export const SCREENS');
  if (start < 0) throw new Error('screens.ts has no SCREENS');
  const open = source.indexOf('{', source.indexOf('=', start));
  let depth = 0;
  let end = open;
  for (; end < source.length; end++) {
    if (source[end] === '{') depth++;
    else if (source[end] === '}' && --depth === 0) break;
  }
  const body = source.slice(open + 1, end);
  const keys = new Set<string>();
  // Top-level entries only: `  page_path: …` at the object's own depth.
  let d = 0;
  for (const line of body.split('\n')) {
    if (d === 0) {
      const m = /^\s*([a-z][a-z0-9_]*)\s*:/.exec(line);
      if (m && !line.trim().startsWith('//')) keys.add(m[1]!);
    }
    for (const ch of line.replace(/'[^']*'|"[^"]*"/g, '')) {
      if (ch === '(' || ch === '{' || ch === '[') d++;
      else if (ch === ')' || ch === '}' || ch === ']') d--;
    }
  }
  return keys;
}

let t: TestApp;
let screens: Set<string>;

beforeAll(async () => {
  t = await createTestApp();
  screens = screenKeys(fs.readFileSync(SCREENS_FILE, 'utf8'));
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('the permission catalogue has screens and APIs', () => {
  it('reads the screen registry (sanity: known screens are found, a comment is not)', () => {
    expect(screens.has('today_statistics')).toBe(true);
    expect(screens.has('ip_black')).toBe(true);
    expect(screens.size).toBeGreaterThan(50);
  });

  it('every page of the catalogue has a console screen', () => {
    const missing = ALL_PAGES.filter((p) => !screens.has(p));
    expect(missing, `pages without a screen in apps/web/src/app/screens.ts: ${missing.join(', ')}`).toEqual([]);
  });

  it('every page of the catalogue has at least one API route declaring it', () => {
    const declared = new Set(t.routes.flatMap((r) => ('page' in r.access ? [r.access.page] : [])));
    // A page every admin holds (one's own password) is served by signed-in routes, by design.
    const missing = ALL_PAGES.filter((p) => !declared.has(p) && !ALWAYS_ALLOWED_PAGES.includes(p));
    expect(missing, `pages no API route declares in config.access: ${missing.join(', ')}`).toEqual([]);
  });

  it('every screen and every route names a page of the catalogue', () => {
    const strayScreens = [...screens].filter((s) => !ALL_PAGES.includes(s));
    expect(strayScreens, `screens of no catalogue page: ${strayScreens.join(', ')}`).toEqual([]);
    const keys = new Set(flattenCatalogue().map((e) => e.key));
    const strayRoutes = t.routes.filter((r) => 'page' in r.access && !keys.has(r.access.button ? `${r.access.page}:${r.access.button}` : r.access.page));
    expect(strayRoutes.map((r) => `${r.method} ${r.url} → ${JSON.stringify(r.access)}`)).toEqual([]);
  });

  it("the role permission tree shows only groups, pages and buttons that exist, each page with its screen", async () => {
    const token = await t.login('admin', 'Admin#2026pass');
    const [role] = await t.database.db.select({ id: roles.id }).from(roles).limit(1);
    const roleId = role!.id;
    const r = await t.call('GET', `/api/v1/system/roles/${roleId}/permissions`, { token });
    expect(r.status).toBe(200);
    const groups = new Set(MENU_CATALOGUE.map((g) => g.path));
    const keys = new Set(flattenCatalogue().map((e) => e.key));
    const problems: string[] = [];
    const seen = new Set<string>();
    const walk = (nodes: MenuNode[], depth: number) => {
      for (const n of nodes) {
        seen.add(n.key);
        if (!keys.has(n.key)) problems.push(`${n.key}: not in the catalogue`);
        else if (depth === 0 && !groups.has(n.key)) problems.push(`${n.key}: a top node that is not a group`);
        else if (depth === 1 && !screens.has(n.key)) problems.push(`${n.key}: a page without a screen`);
        walk(n.children ?? [], depth + 1);
      }
    };
    walk(r.body.tree, 0);
    expect(problems, problems.join('\n')).toEqual([]);
    // And the super admin's tree offers the whole catalogue.
    expect([...keys].filter((k) => !seen.has(k))).toEqual([]);
  });

  it('every start brings an edited catalogue row back to the catalogue, and writes nothing when nothing differs', async () => {
    const db = t.database.db;
    const entry = flattenCatalogue().find((e) => e.key === 'log')!;
    const rowOf = async () => (await db.select().from(menuItems).where(eq(menuItems.key, 'log')))[0]!;
    const before = await rowOf();
    await db.update(menuItems).set({ sort: before.sort + 1000, languageVariables: 'menu.stale', hidden: !before.hidden }).where(eq(menuItems.key, 'log'));
    await seed(db, { adminPassword: 'Admin#2026pass' });
    const after = await rowOf();
    expect({ sort: after.sort, languageVariables: after.languageVariables, hidden: after.hidden }).toEqual({ sort: entry.sort, languageVariables: entry.languageVariable, hidden: entry.hidden });
    // An unchanged catalogue: no row of menu_items is written again (xmin, the writing transaction, stays).
    const xmins = async () => (await db.execute(sql`SELECT key, xmin::text AS x FROM menu_items ORDER BY key`)) as unknown as { rows: { key: string; x: string }[] };
    const first = (await xmins()).rows;
    await seed(db, { adminPassword: 'Admin#2026pass' });
    expect((await xmins()).rows).toEqual(first);
  });
});
