import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { noticeRecipients } from '../src/modules/notices/index.js';
import { admins, roles } from '../src/platform/schema.js';
import { createTestApp, makeAdmin, makeRole, type TestApp } from './helpers';

/**
 * Who hears of something about a page (issue 26: one function for the five alerts that used to compute it
 * each their own way): the enabled super admins and the enabled holders of the page, each once, in id
 * order; a disabled admin hears nothing, super or not; `except` leaves out the one who asked.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

describe('notice recipients', () => {
  it('are the enabled super admins and holders of the page, once each, in id order', async () => {
    const db = t.database.db;
    const [root] = await db.select({ id: admins.id }).from(admins).where(eq(admins.account, 'admin'));
    const [superRole] = await db.select({ id: roles.id }).from(roles).where(eq(roles.isSuper, true));
    const desk = await makeRole(t, 'Reminder desk', ['betting', 'bet_remind']);
    const other = await makeRole(t, 'Elsewhere', ['betting']);
    const holder = await makeAdmin(t, 'nr_holder', desk, root!.id);
    const disabledHolder = await makeAdmin(t, 'nr_holder_off', desk, root!.id, { disabled: 2 });
    const disabledSuper = await makeAdmin(t, 'nr_super_off', superRole!.id, null, { disabled: 2 });
    const secondSuper = await makeAdmin(t, 'nr_super', superRole!.id, null);
    const bystander = await makeAdmin(t, 'nr_other', other, root!.id);

    const ids = (await noticeRecipients(db, 'bet_remind')).map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([root!.id, holder, secondSuper]));
    for (const absent of [disabledHolder, disabledSuper, bystander]) expect(ids).not.toContain(absent);
    expect((await noticeRecipients(db, 'bet_remind', { except: holder })).map((r) => r.id)).not.toContain(holder);
  });
});
