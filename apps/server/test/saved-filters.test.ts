/**
 * Saved filters (issue 29): per admin and list, stored on the server (/api/v1/system/saved_filters). Only
 * the owner changes or deletes a filter; a filter shared with a role is listed, read-only, to the admins of
 * that role; one default per admin and list; names, queries and pages validated; the list must be one the
 * admin may open. Each case works on its own admins or its own list, so the cases run in any order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { SAVED_FILTERS_PER_PAGE } from '@dau/contract';
import { admins } from '../src/platform/schema.js';
import { savedFilters } from '../src/modules/system/schema.js';
import { ADMIN_PASSWORD, createTestApp, makeAdmin, makeRole, type TestApp } from './helpers.js';

let t: TestApp;
let rootId: number;
let deskRole: number;
let otherRole: number;
const tokens: Record<string, string> = {};
const URL = '/api/v1/system/saved_filters';

beforeAll(async () => {
  t = await createTestApp();
  [{ id: rootId }] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
  deskRole = await makeRole(t, 'Desk', ['users', 'user', 'withdraw_list', 'recharge_list']);
  otherRole = await makeRole(t, 'Other desk', ['users', 'user']);
  for (const account of ['desk1', 'desk2', 'desk3', 'desk4', 'desk5']) await makeAdmin(t, account, deskRole, rootId);
  await makeAdmin(t, 'other1', otherRole, rootId);
  tokens.admin = await t.login('admin', ADMIN_PASSWORD);
  for (const account of ['desk1', 'desk2', 'desk3', 'desk4', 'desk5', 'other1']) tokens[account] = await t.login(account);
});
afterAll(async () => {
  await t?.close();
});

const list = (who: string, page: string) => t.call('GET', `${URL}?page=${page}`, { token: tokens[who] });
const save = (who: string, body: Record<string, unknown>) => t.call('POST', URL, { token: tokens[who], body });

describe('saved filters', () => {
  it('saves the current query without its page number and lists one\'s own filters with the default', async () => {
    const r = await save('desk1', { page: 'user', name: 'Large balances', query: '?balance_from=100000&page=3&sort=-balance&page_size=50', is_default: true });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ page: 'user', name: 'Large balances', query: 'balance_from=100000&sort=-balance&page_size=50', mine: true, is_default: true, shared_role_id: null, owner_account: 'desk1' });
    const l = await list('desk1', 'user');
    expect(l.status).toBe(200);
    expect(l.body.items.map((i: { name: string }) => i.name)).toEqual(['Large balances']);
    expect(l.body.default_id).toBe(r.body.id);
    // Without the role page an admin shares with their own role only.
    expect(l.body.share_roles).toEqual([{ id: deskRole, name: 'Desk' }]);
    // Another list of the same admin is another set.
    expect((await list('desk1', 'withdraw_list')).body.items).toEqual([]);
    // A second filter of the same name on the same list is refused; renaming keeps the rule.
    const dup = await save('desk1', { page: 'user', name: 'Large balances', query: 'x=1' });
    expect(dup.status).toBe(409);
    expect(dup.body.details).toEqual([{ field: 'name', message: expect.stringContaining('Large balances') }]);
    const other = await save('desk1', { page: 'user', name: 'Agents', query: 'agent_id=3' });
    expect((await t.call('PUT', `${URL}/${other.body.id}`, { token: tokens.desk1, body: { name: 'Large balances' } })).status).toBe(409);
    const renamed = await t.call('PUT', `${URL}/${other.body.id}`, { token: tokens.desk1, body: { name: 'Agent 3', query: 'agent_id=3&page=2' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Agent 3', query: 'agent_id=3' });
  });

  it('keeps one default per admin and list: pinning another unpins the first, and a default can be unpinned', async () => {
    const a = await save('desk2', { page: 'recharge_list', name: 'A', query: 'status=1', is_default: true });
    const b = await save('desk2', { page: 'recharge_list', name: 'B', query: 'status=2', is_default: true });
    expect(b.status).toBe(201);
    let l = await list('desk2', 'recharge_list');
    expect(l.body.default_id).toBe(b.body.id);
    expect(l.body.items.filter((i: { is_default: boolean }) => i.is_default)).toHaveLength(1);
    const pin = await t.call('PUT', `${URL}/${a.body.id}/default`, { token: tokens.desk2, body: { is_default: true } });
    expect(pin.status).toBe(200);
    expect(pin.body.is_default).toBe(true);
    l = await list('desk2', 'recharge_list');
    expect(l.body.default_id).toBe(a.body.id);
    const pinned = await t.database.db
      .select({ id: savedFilters.id })
      .from(savedFilters)
      .where(and(eq(savedFilters.page, 'recharge_list'), eq(savedFilters.isDefault, true), eq(savedFilters.adminId, await adminId('desk2'))));
    expect(pinned).toEqual([{ id: a.body.id }]);
    expect((await t.call('PUT', `${URL}/${a.body.id}/default`, { token: tokens.desk2, body: { is_default: false } })).status).toBe(200);
    expect((await list('desk2', 'recharge_list')).body.default_id).toBeNull();
  });

  it('shows a filter shared with a role to the other admins of that role, read-only; others cannot see it at all', async () => {
    const f = await save('desk3', { page: 'withdraw_list', name: 'Stuck', query: 'status=2&sort=create_time', shared_role_id: deskRole });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    expect(f.body).toMatchObject({ shared_role_id: deskRole, shared_role_name: 'Desk' });
    const seen = await list('desk4', 'withdraw_list');
    const row = seen.body.items.find((i: { id: number }) => i.id === f.body.id);
    expect(row).toMatchObject({ name: 'Stuck', query: 'status=2&sort=create_time', mine: false, is_default: false, owner_account: 'desk3' });
    // Read-only for desk4: every change is refused and nothing changed.
    expect((await t.call('PUT', `${URL}/${f.body.id}`, { token: tokens.desk4, body: { name: 'Mine now' } })).status).toBe(403);
    expect((await t.call('PUT', `${URL}/${f.body.id}/default`, { token: tokens.desk4, body: { is_default: true } })).status).toBe(403);
    expect((await t.call('DELETE', `${URL}/${f.body.id}`, { token: tokens.desk4 })).status).toBe(403);
    // An admin of another role neither sees it nor learns that it exists.
    expect((await list('other1', 'user')).body.items.find((i: { id: number }) => i.id === f.body.id)).toBeUndefined();
    expect((await t.call('PUT', `${URL}/${f.body.id}`, { token: tokens.other1, body: { name: 'x' } })).status).toBe(404);
    expect((await t.call('DELETE', `${URL}/${f.body.id}`, { token: tokens.other1 })).status).toBe(404);
    const [still] = await t.database.db.select().from(savedFilters).where(eq(savedFilters.id, f.body.id));
    expect(still).toMatchObject({ name: 'Stuck', isDefault: false });
    // Unshared by its owner, it leaves desk4's list; deleted, it is gone.
    expect((await t.call('PUT', `${URL}/${f.body.id}`, { token: tokens.desk3, body: { shared_role_id: null } })).status).toBe(200);
    expect((await list('desk4', 'withdraw_list')).body.items.find((i: { id: number }) => i.id === f.body.id)).toBeUndefined();
    expect((await t.call('PUT', `${URL}/${f.body.id}`, { token: tokens.desk4, body: { name: 'x' } })).status).toBe(404);
    expect((await t.call('DELETE', `${URL}/${f.body.id}`, { token: tokens.desk3 })).status).toBe(200);
    expect((await t.call('DELETE', `${URL}/${f.body.id}`, { token: tokens.desk3 })).status).toBe(404);
  });

  it('shares with another role only with role management (the super admin here)', async () => {
    const refused = await save('desk5', { page: 'user', name: 'For the other desk', query: 'x=1', shared_role_id: otherRole });
    expect(refused.status).toBe(403);
    expect((await list('desk5', 'user')).body.items).toEqual([]);
    const missingRole = await save('admin', { page: 'user', name: 'Nobody', query: 'x=1', shared_role_id: 999_999 });
    expect(missingRole.status).toBe(400);
    const shared = await save('admin', { page: 'user', name: 'From the head office', query: 'risk=1', shared_role_id: otherRole });
    expect(shared.status).toBe(201);
    const seen = await list('other1', 'user');
    expect(seen.body.items.find((i: { id: number }) => i.id === shared.body.id)).toMatchObject({ mine: false, owner_account: 'admin', shared_role_name: 'Other desk' });
    expect((await list('admin', 'user')).body.share_roles.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([deskRole, otherRole]));
  });

  it('refuses bad names, queries and pages, a list the admin may not open, and a 51st filter', async () => {
    for (const body of [
      { page: 'user', name: '', query: 'a=1' },
      { page: 'user', name: '   ', query: 'a=1' },
      { page: 'user', name: 'x'.repeat(41), query: 'a=1' },
      { page: 'user', name: 'Long', query: `a=${'1'.repeat(2000)}` },
      { page: 'no_such_list', name: 'Unknown', query: 'a=1' },
      { page: 'user', name: 'Extra', query: 'a=1', admin_id: 1 },
    ]) {
      const r = await save('other1', body);
      expect(r.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(r.body.code).toBe('PARAM_INVALID');
    }
    // other1's role does not hold the withdrawal list: neither its filters nor a new one.
    expect((await list('other1', 'withdraw_list')).status).toBe(403);
    expect((await save('other1', { page: 'withdraw_list', name: 'Sneaky', query: 'a=1' })).status).toBe(403);
    expect((await t.call('GET', `${URL}?page=user`)).status).toBe(401);

    const me = await adminId('other1');
    await t.database.db.insert(savedFilters).values(Array.from({ length: SAVED_FILTERS_PER_PAGE }, (_, i) => ({ adminId: me, page: 'user', name: `F${i}`, query: `n=${i}` })));
    const full = await save('other1', { page: 'user', name: 'One too many', query: 'a=1' });
    expect(full.status).toBe(422);
    expect(full.body.details).toEqual([expect.objectContaining({ field: 'page', limit: SAVED_FILTERS_PER_PAGE })]);
    // Deleting one makes room again.
    const [one] = await t.database.db.select({ id: savedFilters.id }).from(savedFilters).where(and(eq(savedFilters.adminId, me), eq(savedFilters.page, 'user')));
    expect((await t.call('DELETE', `${URL}/${one.id}`, { token: tokens.other1 })).status).toBe(200);
    expect((await save('other1', { page: 'user', name: 'One too many', query: 'a=1' })).status).toBe(201);
  });
});

async function adminId(account: string) {
  const [a] = await t.database.db.select({ id: admins.id }).from(admins).where(eq(admins.account, account));
  return a.id;
}
