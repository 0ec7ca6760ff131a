import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ADMIN_PASSWORD, PASSWORD, createTestApp, makeWorld, type TestApp } from './helpers.js';
import { admins, systemLogs } from '../src/platform/schema.js';

let t: TestApp;
let w: Awaited<ReturnType<typeof makeWorld>>;
let root: string;
let agentA: string;
let agentB: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await makeWorld(t);
  // Agent A's own share: what they may give below them at most.
  await t.database.db.update(admins).set({ shareRatio: '0.3500' }).where(eq(admins.id, w.agentA));
  root = await t.login('admin', ADMIN_PASSWORD);
  agentA = await t.login('agent_a');
  agentB = await t.login('agent_b');
});
afterAll(() => t?.close());

const accounts = (body: { items: { account: string }[] }) => body.items.map((i) => i.account).sort();
/** An admin and everyone below them, as the database holds the tree now (accounts sorted). */
async function subtree(id: number): Promise<{ account: string; superior: number | null }[]> {
  const { rows } = await t.database.query(
    `SELECT a.account, a.superior_id AS superior FROM admins a, admins me
     WHERE me.id = $1 AND (a.id = me.id OR a.path LIKE me.path || me.id || '/%') ORDER BY a.account`,
    [id],
  );
  return (rows as { account: string; superior: number | null }[]).sort((x, y) => (x.account < y.account ? -1 : x.account > y.account ? 1 : 0));
}

describe('administrators: scope', () => {
  it('the super admin sees everyone; an agent sees only their own subtree', async () => {
    // Other cases of this file add admins (below agent_a, below agent_b1): the lists are compared with the
    // tree as the database holds it now, and with the world's own accounts.
    const all = await t.call('GET', '/api/v1/system/administrators?page_size=200', { token: root });
    const [{ n }] = (await t.database.query(`SELECT count(*)::int AS n FROM admins`)).rows as { n: number }[];
    expect(all.body.total).toBe(n);
    expect(n).toBeGreaterThanOrEqual(7);
    const agentRow = all.body.items.find((i: { account: string }) => i.account === 'agent_a');
    expect(agentRow.subordinates).toBe((await subtree(w.agentA)).filter((x) => x.superior === w.agentA).length);
    expect(agentRow.superior_account).toBe('admin');
    expect(agentRow.role_name).toBe('Agent');
    const a = await t.call('GET', '/api/v1/system/administrators?page_size=200', { token: agentA });
    expect(accounts(a.body)).toEqual((await subtree(w.agentA)).map((x) => x.account));
    expect(accounts(a.body)).toEqual(expect.arrayContaining(['agent_a', 'agent_a1']));
    expect(accounts(a.body).filter((x) => x.startsWith('agent_b'))).toEqual([]);
    expect(a.body.total).toBe(a.body.items.length);
    const b = await t.call('GET', '/api/v1/system/administrators?page_size=200', { token: agentB });
    expect(accounts(b.body)).toEqual((await subtree(w.agentB)).map((x) => x.account));
    expect(accounts(b.body)).toEqual(expect.arrayContaining(['agent_b', 'agent_b1']));
    expect(accounts(b.body).filter((x) => x.startsWith('agent_a'))).toEqual([]);
    const opts = await t.call('GET', '/api/v1/system/administrators/options', { token: agentB });
    expect(opts.body.items.map((i: { account: string }) => i.account).sort()).toEqual(accounts(b.body));
  });

  it('an agent cannot read, edit, disable or reset an admin of another branch', async () => {
    expect((await t.call('GET', `/api/v1/system/administrators/${w.agentA1}`, { token: agentB })).body.code).toBe('OUT_OF_SCOPE');
    expect((await t.call('PUT', `/api/v1/system/administrators/${w.agentA1}`, { token: agentB, body: { name: 'x' } })).status).toBe(403);
    expect((await t.call('POST', `/api/v1/system/administrators/${w.agentA1}/disable`, { token: agentB, body: { disabled: 2 } })).status).toBe(403);
    expect((await t.call('POST', `/api/v1/system/administrators/${w.agentA1}/reset-password`, { token: agentB, body: {} })).status).toBe(403);
    expect((await t.call('POST', '/api/v1/system/administrators/notify', { token: agentB, body: { admin_ids: [w.agentA1], content: 'hi' } })).status).toBe(403);
    const [a1] = await t.database.db.select().from(admins).where(eq(admins.id, w.agentA1));
    expect(a1.disabled).toBe(1);
    expect(a1.name).toBe('agent_a1');
  });

  it('a filter on filters and a sort work, and an unknown sort is refused', async () => {
    const r = await t.call('GET', '/api/v1/system/administrators?account=agent&sort=account', { token: root });
    expect(r.body.items.map((i: { account: string }) => i.account)).toEqual(['agent_a', 'agent_a1', 'agent_b', 'agent_b1']);
    const byRole = await t.call('GET', `/api/v1/system/administrators?role_id=${w.limitedRole}`, { token: root });
    expect(accounts(byRole.body)).toEqual(['limited']);
    expect((await t.call('GET', '/api/v1/system/administrators?sort=password_hash', { token: root })).status).toBe(400);
    expect((await t.call('GET', '/api/v1/system/administrators?page_size=500', { token: root })).status).toBe(400);
  });

  it('an export respects the scope', async () => {
    const r = await t.call('GET', '/api/v1/system/administrators/export', { token: root });
    expect(r.res.headers['content-type']).toContain('text/csv');
    expect(r.res.body).toContain('agent_b1');
    const token = await t.login('agent_a');
    const db = t.database.db;
    // agent_a has the export button through the Agent role
    const a = await t.call('GET', '/api/v1/system/administrators/export', { token });
    expect(a.status).toBe(200);
    expect(a.res.body).toContain('agent_a1');
    expect(a.res.body).not.toContain('agent_b');
    void db;
  });
});

describe('administrators: create and edit', () => {
  it('creates below the acting agent with a generated password shown once', async () => {
    const r = await t.call('POST', '/api/v1/system/administrators', { token: agentA, body: { account: 'a_child', name: 'Child', role_id: w.agentRole, share_ratio: 0.1 } });
    expect(r.status).toBe(201);
    expect(r.body.password).toMatch(/^.{16}$/);
    expect(r.body.admin.superior_id).toBe(w.agentA);
    expect((await t.call('POST', '/api/v1/auth/login', { body: { account: 'a_child', password: r.body.password } })).status).toBe(200);
    const dup = await t.call('POST', '/api/v1/system/administrators', { token: root, body: { account: 'A_CHILD', role_id: w.agentRole } });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('ACCOUNT_EXISTS');
  });

  it('refuses a negative share ratio with the spec message', async () => {
    const r = await t.call('PUT', `/api/v1/system/administrators/${w.agentA1}`, { token: agentA, body: { share_ratio: -1 } });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Please enter a number greater than or equal to 0');
    const ok = await t.call('PUT', `/api/v1/system/administrators/${w.agentA1}`, { token: agentA, body: { share_ratio: 0.25 } });
    expect(ok.body.share_ratio).toBe('0.2500');
  });

  it('an admin cannot change their own role', async () => {
    const r = await t.call('PUT', `/api/v1/system/administrators/${w.agentA}`, { token: agentA, body: { role_id: w.limitedRole } });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('CANNOT_CHANGE_OWN_ROLE');
  });

  it('an agent cannot give a role holding permissions they do not hold', async () => {
    const adminRole = (await t.call('GET', '/api/v1/system/roles?name=Administrator', { token: root })).body.items[0];
    const r = await t.call('PUT', `/api/v1/system/administrators/${w.agentA1}`, { token: agentA, body: { role_id: adminRole.id } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('CANNOT_GRANT_UNHELD');
    const opts = await t.call('GET', '/api/v1/system/roles/options', { token: agentA });
    expect(opts.body.items.map((i: { name: string }) => i.name)).not.toContain('Administrator');
    expect(opts.body.items.map((i: { name: string }) => i.name)).toContain('Agent');
  });

  it('moving an admin to another superior moves their subtree, and never below themselves', async () => {
    const child = (await t.call('POST', '/api/v1/system/administrators', { token: root, body: { account: 'b1_child', role_id: w.agentRole, superior_id: w.agentB1 } })).body.admin;
    const move = await t.call('PUT', `/api/v1/system/administrators/${w.agentB1}`, { token: root, body: { superior_id: w.agentA } });
    expect(move.status).toBe(200);
    const aList = await t.call('GET', '/api/v1/system/administrators?page_size=200', { token: await t.login('agent_a') });
    expect(accounts(aList.body)).toContain('b1_child');
    const loop = await t.call('PUT', `/api/v1/system/administrators/${w.agentB1}`, { token: root, body: { superior_id: child.id } });
    expect(loop.status).toBe(400);
    await t.call('PUT', `/api/v1/system/administrators/${w.agentB1}`, { token: root, body: { superior_id: w.agentB } });
  });

  it('reset password: blank generates one; a given one is used; both end the sessions', async () => {
    const token = await t.login('agent_a1');
    const gen = await t.call('POST', `/api/v1/system/administrators/${w.agentA1}/reset-password`, { token: agentA, body: {} });
    expect(gen.body.password).toHaveLength(16);
    expect((await t.call('GET', '/api/v1/auth/me', { token })).status).toBe(401);
    const given = await t.call('POST', `/api/v1/system/administrators/${w.agentA1}/reset-password`, { token: agentA, body: { password: PASSWORD } });
    expect(given.body.password).toBeUndefined();
    expect((await t.call('POST', '/api/v1/auth/login', { body: { account: 'agent_a1', password: PASSWORD } })).status).toBe(200);
    const trail = await t.database.db.select().from(systemLogs).where(eq(systemLogs.type, 4));
    expect(trail.length).toBe(2);
    expect(JSON.stringify(trail)).not.toContain(PASSWORD);
  });

  it('every change writes the values before and after', async () => {
    await t.call('PUT', `/api/v1/system/administrators/${w.agentA1}`, { token: agentA, body: { phone: '255754000999' } });
    const [row] = await t.database.db.select().from(systemLogs).where(eq(systemLogs.content, 'Edited administrator "agent_a1"')).orderBy(systemLogs.id);
    expect(row.adminId).toBe(w.agentA);
    expect(row.ip).toBe('127.0.0.1');
    expect(row.before).toBeTruthy();
    expect(row.after).toBeTruthy();
  });
});

describe('roles', () => {
  it('"Fill role name" and the permission tree validation', async () => {
    const blank = await t.call('POST', '/api/v1/system/roles', { token: root, body: { name: '  ', remarks: '' } });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe('Fill role name');
    const created = await t.call('POST', '/api/v1/system/roles', { token: root, body: { name: 'Risk desk', remarks: 'watches bets' } });
    expect(created.status).toBe(201);
    const empty = await t.call('PUT', `/api/v1/system/roles/${created.body.id}/permissions`, { token: root, body: { keys: [''] } });
    expect(empty.body.message).toBe('Node name cannot be empty');
    const unknown = await t.call('PUT', `/api/v1/system/roles/${created.body.id}/permissions`, { token: root, body: { keys: ['no_such_page'] } });
    expect(unknown.status).toBe(400);
    const saved = await t.call('PUT', `/api/v1/system/roles/${created.body.id}/permissions`, { token: root, body: { keys: ['ip_black:create'] } });
    expect(saved.status).toBe(200);
    // A button brings its page and group with it.
    expect(saved.body.keys.sort()).toEqual(['ip_black', 'ip_black:create', 'system']);
    const got = await t.call('GET', `/api/v1/system/roles/${created.body.id}/permissions`, { token: root });
    expect(got.body.keys).toEqual(['ip_black', 'ip_black:create', 'system']);
  });

  it('an agent cannot grant what they do not hold, and what they do not hold stays', async () => {
    const role = await t.call('POST', '/api/v1/system/roles', { token: agentA, body: { name: 'Sub agent', remarks: '' } });
    expect(role.status).toBe(201);
    const refused = await t.call('PUT', `/api/v1/system/roles/${role.body.id}/permissions`, { token: agentA, body: { keys: ['ip_black'] } });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('CANNOT_GRANT_UNHELD');
    const ok = await t.call('PUT', `/api/v1/system/roles/${role.body.id}/permissions`, { token: agentA, body: { keys: ['log'] } });
    expect(ok.status).toBe(200);
    // The super admin adds ip_black; the agent then saves their part; ip_black stays.
    await t.call('PUT', `/api/v1/system/roles/${role.body.id}/permissions`, { token: root, body: { keys: ['log', 'ip_black'] } });
    const again = await t.call('PUT', `/api/v1/system/roles/${role.body.id}/permissions`, { token: agentA, body: { keys: ['administrators'] } });
    expect(again.body.keys.sort()).toEqual(['administrators', 'ip_black', 'system']);
    const tree = await t.call('GET', `/api/v1/system/roles/${role.body.id}/permissions`, { token: agentA });
    const flat = JSON.stringify(tree.body.tree);
    expect(flat).not.toContain('"key":"ip_black"');
    expect(flat).toContain('"key":"administrators"');
  });

  it('a role in use cannot be deleted; an unused one can', async () => {
    const inUse = await t.call('DELETE', `/api/v1/system/roles/${w.limitedRole}`, { token: root });
    expect(inUse.status).toBe(409);
    expect(inUse.body.code).toBe('ROLE_IN_USE');
    const spare = await t.call('POST', '/api/v1/system/roles', { token: root, body: { name: 'Spare', remarks: '' } });
    const del = await t.call('DELETE', `/api/v1/system/roles/${spare.body.id}`, { token: root });
    expect(del.body).toEqual({ ok: true });
    const superRole = (await t.call('GET', '/api/v1/system/roles', { token: root })).body.items.find((r: { is_super: boolean }) => r.is_super);
    expect((await t.call('DELETE', `/api/v1/system/roles/${superRole.id}`, { token: root })).status).toBe(409);
  });

  it('removing a permission takes effect on open sessions at once', async () => {
    const token = await t.login('limited');
    expect((await t.call('GET', '/api/v1/system/ip_black', { token })).status).toBe(200);
    await t.call('PUT', `/api/v1/system/roles/${w.limitedRole}/permissions`, { token: root, body: { keys: ['log', 'language_list'] } });
    expect((await t.call('GET', '/api/v1/system/ip_black', { token })).status).toBe(403);
    const me = await t.call('GET', '/api/v1/auth/me', { token });
    expect(me.body.user_info.permissions).not.toContain('ip_black');
  });

  it('the menu tree counts type-1 pc children; the buttons held come as permissions, not as nodes', async () => {
    const me = await t.call('GET', '/api/v1/auth/me', { token: agentA });
    const system = me.body.menus.find((m: { key: string }) => m.key === 'system');
    expect(system.children_number).toBe(system.children.filter((c: { type: number }) => c.type === 1).length);
    const adminsPage = system.children.find((c: { key: string }) => c.key === 'administrators');
    expect(adminsPage.children).toEqual([]);
    expect(me.body.user_info.permissions).toContain('administrators:create');
    expect(me.body.menus.find((m: { key: string }) => m.key === 'betting')).toBeUndefined();
  });
});

describe('notices', () => {
  it('an admin sends a notice; the recipient fetches the unread one and marks it viewed', async () => {
    const sent = await t.call('POST', '/api/v1/system/administrators/notify', { token: agentA, body: { admin_ids: [w.agentA1], content: 'Check the stuck withdrawals' } });
    expect(sent.body.sent).toBe(1);
    const token = await t.login('agent_a1');
    const unread = await t.call('GET', '/api/v1/notices?notify_status=1&page=1&page_size=1', { token });
    expect(unread.body.items).toHaveLength(1);
    expect(unread.body.items[0].content).toBe('Check the stuck withdrawals');
    // Another admin cannot mark it.
    expect((await t.call('POST', `/api/v1/notices/${unread.body.items[0].id}/viewed`, { token: agentB })).status).toBe(404);
    expect((await t.call('POST', `/api/v1/notices/${unread.body.items[0].id}/viewed`, { token })).status).toBe(200);
    expect((await t.call('GET', '/api/v1/notices?notify_status=1&page=1&page_size=1', { token })).body.items).toHaveLength(0);
  });
});
