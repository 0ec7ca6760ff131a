import { eq, inArray, sql } from 'drizzle-orm';
import { flattenCatalogue, seedRoleKeys, SEED_ROLES } from '@dau/contract';
import { LOG_TYPE, enumLabel } from '@dau/domain';
import { admins, logTypes, menuItems, roleMenus, roles } from './schema.js';
import type { Db, Executor } from './db.js';
import { generatePassword, hashPassword } from './crypto.js';

/** The seeded roles, for modules whose reference rows name one (the default role of new accounts). */
export interface SeededRoles {
  superRoleId: number;
  administratorRoleId: number;
  defaultRoleId: number;
}

/**
 * A module's reference rows, brought up to date on every start inside the seed's transaction (after the
 * catalogue, roles and log types, before the super admin). It must be idempotent and must not overwrite
 * operators' edits. The composition root (`src/seed.ts`) lists the modules' seeds.
 */
export type ModuleSeed = (ex: Executor, roles: SeededRoles) => Promise<void>;

export interface SeedOptions {
  adminPassword?: string;
  demo?: boolean;
}

export interface SeedResult {
  /** Set when the super admin was created by this run. */
  adminPassword?: string;
  adminCreated: boolean;
}

/** The columns of a catalogue row the seed owns (compared to decide whether a row needs writing). */
const CATALOGUE_COLUMNS = ['parentId', 'name', 'languageVariables', 'path', 'type', 'platform', 'showHeadshot', 'hidden', 'icon', 'sort'] as const;

/**
 * Upserts the permission catalogue by key; returns the keys that are new. Only rows that differ from the
 * catalogue are written: an unchanged start (every start but the first of a release) is one read,
 * instead of an UPDATE per entry (337 of them took 0.35-0.7 s of every start on PGlite).
 */
async function seedCatalogue(ex: Executor): Promise<string[]> {
  const entries = flattenCatalogue();
  const rows = await ex.select().from(menuItems);
  const existing = new Map(rows.map((r) => [r.key, r.id]));
  const current = new Map(rows.map((r) => [r.key, r]));
  const added: string[] = [];
  for (const e of entries) {
    const parentId = e.parentKey ? existing.get(e.parentKey) ?? null : null;
    const values = {
      key: e.key, parentId, name: e.name, languageVariables: e.languageVariable, path: e.path, type: e.type,
      platform: e.platform, showHeadshot: e.showHeadshot, hidden: e.hidden, icon: e.icon, sort: e.sort,
    };
    const row = current.get(e.key);
    if (row) {
      if (CATALOGUE_COLUMNS.some((c) => row[c] !== values[c])) await ex.update(menuItems).set(values).where(eq(menuItems.id, row.id));
    } else {
      const [inserted] = await ex.insert(menuItems).values(values).returning({ id: menuItems.id });
      existing.set(e.key, inserted.id);
      added.push(e.key);
    }
  }
  // Items no longer in the catalogue leave every role.
  const keep = new Set(entries.map((e) => e.key));
  const gone = [...existing.keys()].filter((k) => !keep.has(k));
  if (gone.length) await ex.delete(menuItems).where(inArray(menuItems.key, gone));
  return added;
}

async function ensureRole(ex: Executor, name: string, remarks: string, isSuper: boolean, servesSuperiorBranch = false) {
  const [r] = await ex.select().from(roles).where(eq(roles.name, name));
  if (r) return { id: r.id, created: false };
  const [row] = await ex.insert(roles).values({ name, remarks, isSuper, servesSuperiorBranch }).returning({ id: roles.id });
  return { id: row.id, created: true };
}

async function grant(ex: Executor, roleId: number, keys: string[]) {
  if (!keys.length) return;
  const ids = await ex.select({ id: menuItems.id }).from(menuItems).where(inArray(menuItems.key, keys));
  if (!ids.length) return;
  await ex.insert(roleMenus).values(ids.map((r) => ({ roleId, menuId: r.id }))).onConflictDoNothing();
  await ex.update(roles).set({ version: sql`${roles.version} + 1` }).where(eq(roles.id, roleId));
}

/**
 * A new entry that takes over what another one guarded (`from` in the catalogue) goes to every role holding
 * that one, on the start that adds it only: an operator's later removal stands.
 */
async function carryOver(ex: Executor, added: string[]) {
  const moves = flattenCatalogue().filter((e) => e.from && added.includes(e.key));
  const touched = new Set<number>();
  for (const e of moves) {
    const { rows } = (await ex.execute(sql`
      INSERT INTO role_menus (role_id, menu_id)
      SELECT rm.role_id, target.id FROM role_menus rm
      JOIN menu_items source ON source.id = rm.menu_id AND source.key = ${e.from}
      JOIN menu_items target ON target.key = ${e.key}
      ON CONFLICT DO NOTHING
      RETURNING role_id`)) as unknown as { rows: { role_id: number }[] };
    for (const r of rows) touched.add(Number(r.role_id));
  }
  if (touched.size) await ex.update(roles).set({ version: sql`${roles.version} + 1` }).where(inArray(roles.id, [...touched]));
}

/**
 * Idempotent: every start brings the permission catalogue, the seeded roles, the log types and the
 * modules' reference data up to date, and creates the super admin once; it never overwrites operators' edits.
 */
export async function seedPlatform(db: Db, opts: SeedOptions, moduleSeeds: readonly ModuleSeed[]): Promise<SeedResult> {
  let adminPassword: string | undefined;
  let adminCreated = false;
  await db.transaction(async (tx) => {
    const added = await seedCatalogue(tx);
    const superRole = await ensureRole(tx, SEED_ROLES.superAdmin.name, SEED_ROLES.superAdmin.remarks, true);
    const adminRole = await ensureRole(tx, SEED_ROLES.administrator.name, SEED_ROLES.administrator.remarks, false, true);
    const defaultRole = await ensureRole(tx, SEED_ROLES.default.name, SEED_ROLES.default.remarks, false, true);
    const adminKeys = seedRoleKeys('administrator');
    const defaultKeys = seedRoleKeys('default');
    // New roles get their whole set; existing ones only the catalogue entries that are new in this release.
    await grant(tx, adminRole.id, adminRole.created ? adminKeys : adminKeys.filter((k) => added.includes(k)));
    await grant(tx, defaultRole.id, defaultRole.created ? defaultKeys : defaultKeys.filter((k) => added.includes(k)));
    await carryOver(tx, added);

    await tx
      .insert(logTypes)
      .values(Object.entries(LOG_TYPE).map(([code, id]) => ({ id, code, name: enumLabel('log_type', id as never, 'en-US') })))
      .onConflictDoNothing();
    const seeded: SeededRoles = { superRoleId: superRole.id, administratorRoleId: adminRole.id, defaultRoleId: defaultRole.id };
    for (const seedModule of moduleSeeds) await seedModule(tx, seeded);

    const [existing] = await tx.select({ id: admins.id }).from(admins).where(eq(sql`lower(${admins.account})`, 'admin'));
    if (!existing) {
      adminPassword = opts.adminPassword ?? generatePassword();
      await tx.insert(admins).values({
        account: 'admin', name: 'Super admin', passwordHash: await hashPassword(adminPassword), roleId: superRole.id,
        path: '/', invitationCode: 'DAU0001',
      });
      adminCreated = true;
      if (opts.demo) await seedDemo(tx, seeded);
    }
  });
  return { adminPassword, adminCreated };
}

/**
 * Demo staff for a fresh install: two branches of agents under the super admin and a customer-service
 * account, so lists, scopes and the permission tree show something real. Their passwords are random and
 * not printed: the super admin resets one to sign in as that admin.
 */
async function seedDemo(ex: Executor, r: SeededRoles) {
  const [root] = await ex.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  const agentRole = await ensureRole(ex, 'Agent', 'Branch agent: manages the admins below them and reads their trail.', false);
  if (agentRole.created) {
    await grant(ex, agentRole.id, ['system', 'administrators', 'administrators:create', 'administrators:edit', 'administrators:disable',
      'administrators:reset_password', 'administrators:notify', 'log', 'update_password']);
  }
  const hash = await hashPassword(generatePassword());
  const add = async (account: string, name: string, phone: string, roleId: number, superior: { id: number; path: string }, share: string) => {
    const [row] = await ex
      .insert(admins)
      .values({ account, name, phone, passwordHash: hash, roleId, superiorId: superior.id, path: `${superior.path}${superior.id}/`, shareRatio: share, invitationCode: `INV${account.replace(/[^a-z]/gi, '').toUpperCase().slice(-10)}` })
      .returning({ id: admins.id, path: admins.path });
    return row;
  };
  const top = { id: root.id, path: '/' };
  const dar = await add('agent_dar', 'Baraka Mwakyusa', '255754112233', agentRole.id, top, '0.3500');
  await add('agent_dar_kariakoo', 'Neema Shirima', '255715443322', agentRole.id, dar, '0.2000');
  await add('agent_dar_mbezi', 'Juma Ally', '255767998877', agentRole.id, dar, '0.1500');
  const aru = await add('agent_arusha', 'Elia Lema', '255688776655', agentRole.id, top, '0.3000');
  await add('agent_arusha_njiro', 'Rehema Kimaro', '255622334455', agentRole.id, aru, '0.1000');
  await add('cs_amina', 'Amina Said', '255713000111', r.defaultRoleId, top, '0');
  await add('ops_lead', 'Grace Mushi', '255784000222', r.administratorRoleId, top, '0');
}
