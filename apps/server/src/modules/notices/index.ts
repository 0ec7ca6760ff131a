/**
 * Notices to admins (spec §3 Notification): storing and pushing them (./service.ts), the console's notice
 * routes (./routes.ts), and who a notice about a page goes to. Other modules reach it through what is
 * exported here.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db.js';
import { adminAuthOf } from '../../platform/access.js';
import { scopeOf } from '../../platform/listing.js';
import { agentInScope } from '../../platform/ownership.js';
import { admins, menuItems, roleMenus, roles } from '../../platform/schema.js';

export { NOTICE_CREATED, createNotices, followNotices, noticeSocketChannel, publishNotices, type NoticeEvent, type NoticeFollower } from './service.js';

/** An admin a notice goes to. */
export interface NoticeRecipient {
  id: number;
  /** The admin's place in the tree (`/1/5/`): their own subtree is `${path}${id}/`. */
  path: string;
  isSuper: boolean;
}

export interface NoticeRecipientOptions {
  /** An admin left out (the one who asked, who may not approve their own request). */
  except?: number | null;
  /**
   * Only those who may act on this agent's bettors now: whose authorisation holds `key` and whose data
   * scope holds the agent (the same `can` and `scopeOf` the routes apply).
   */
  agentId?: number;
}

/**
 * Who hears of something about the page `key` (a screen, such as `casino_game`, or a button, such as
 * `withdraw_list:approve`): the enabled super admins (they hold every page) and the enabled admins whose
 * role holds `key`, each once, in id order; narrowed by `options`.
 */
export async function noticeRecipients(ex: Executor, key: string, options: NoticeRecipientOptions = {}): Promise<NoticeRecipient[]> {
  const holders = ex
    .select({ roleId: roleMenus.roleId })
    .from(roleMenus)
    .innerJoin(menuItems, eq(menuItems.id, roleMenus.menuId))
    .where(eq(menuItems.key, key));
  // A disabled admin hears nothing, super or not (they may not sign in; alerts also go out by Telegram).
  const who = and(eq(admins.disabled, 1), sql`(${roles.isSuper} or ${admins.roleId} in ${holders})`);
  const candidates = await ex
    .select({ id: admins.id, path: admins.path, isSuper: roles.isSuper })
    .from(admins)
    .innerJoin(roles, eq(roles.id, admins.roleId))
    .where(and(who, options.except == null ? undefined : sql`${admins.id} <> ${options.except}`))
    .orderBy(admins.id);
  const { agentId } = options;
  if (agentId === undefined) return candidates;
  const [page, button] = key.split(':') as [string, string | undefined];
  const out: NoticeRecipient[] = [];
  for (const c of candidates) {
    const auth = await adminAuthOf(ex, c.id);
    if (auth?.can(page, button) && agentInScope(await scopeOf(ex, auth), agentId)) out.push(c);
  }
  return out;
}
