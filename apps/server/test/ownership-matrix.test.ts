/**
 * The ownership matrix: every mutating route of roles, administrators and bettors (and the sandbox
 * routes that take a bettor id, and the reconciliation of a withdrawal or recharge in doubt), called the
 * same way by five identities on REAL objects of two branches:
 *  - super:   the super administrator, on an object of branch B;
 *  - own:     agent A on an object of their own subtree (created for the cell);
 *  - other:   agent A on the same kind of object of branch B;
 *  - self:    agent A on their own administrator record;
 *  - ownRole: agent A on their own role (a seeded role, created by no one).
 * Each cell checks the answer AND the effect in the database: an allowed call changed the object and left
 * its audit row (with before/after), a refused one changed nothing and wrote no audit row of a change.
 * Then one test per finding of the security review (issue: roles, admins, bettors).
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, gt, sql } from 'drizzle-orm';
import { PAY_TYPE } from '@dau/domain';
import { ADMIN_PASSWORD, AGENT_KEYS, createTestApp, makeAdmin, makeRole, type TestApp } from './helpers.js';
import { makeBettor } from './money-helpers.js';
import { rechargeAwaitingReconciliation, withdrawalAwaitingReconciliation, withdrawalsClearingProblems } from './payments-fixtures.js';
import { checkInvariants } from '../src/modules/money/ledger.js';
import { notifications } from '../src/modules/notices/schema.js';
import { admins, menuItems, pendingChanges, roleMenus, roles, systemLogs } from '../src/platform/schema.js';
import { portedNumbers } from '../src/modules/payments/schema.js';
import { activityQualifications, bettors, bills, recharges, withdrawals } from '../src/schema.js';
import { jackpotBetTypes, jackpotIssueMatches, jackpotIssues, jackpotPrizePayouts, jackpotSettlements, jackpotTickets } from '../src/modules/jackpot/schema.js';
import { feedEvents } from '../src/modules/feed/schema.js';
import { casinoGames, casinoSessions, casinoTransactions } from '../src/modules/casino/schema.js';
import { campaigns } from '../src/modules/promotions/schema.js';
import { openSession, providerSecretFor, signWalletBody } from '../src/modules/casino/index.js';
import { depositAddressFor } from '../src/modules/tron/wallets.js';
import { tronSweeps, tronWallets } from '../src/modules/tron/schema.js';
import { COLLECT_JOB } from '../src/modules/tron/sweeps.js';
import { requestUsdtWithdrawal } from '../src/modules/tron/withdrawals.js';
import { insertWallet } from './support/tron-fake-chain.js';
import { boardMessages, messages } from '../src/modules/messaging/schema.js';
import { postBoardMessage } from '../src/modules/messaging/index.js';
import { registerDevice } from '../src/modules/push/index.js';
import { pushDevices, pushSends } from '../src/modules/push/schema.js';
import { telegramBindings } from '../src/modules/telegram/schema.js';
import { racingBets } from '../src/modules/racing/schema.js';
import { mallBrands, mallCategories, mallProducts } from '../src/modules/shop/schema.js';
import { imageTexts, imageTextTypes, rotations, rotationTypes } from '../src/modules/content/schema.js';
import { scriptRuns, serverProcesses } from '../src/modules/operations/schema.js';
import { smsExclusions, smsSends } from '../src/modules/sms/schema.js';

/** The collection (hot) wallet a collect and a USDT withdrawal need (made once; no real key: nothing is signed here). */
let matrixHot: string | null = null;
async function hotWalletForMatrix() {
  matrixHot ??= (await insertWallet(db(), { role: 2 })).addressBase58;
  return matrixHot;
}

const BETTOR_KEYS = [
  'user', 'user:edit_balance', 'user:edit_credit', 'user:change_agent', 'user:invitation_code', 'user:reset_password',
  'user:disable', 'user:risk', 'user:refresh', 'user:ported', 'activity_qualification', 'activity_qualification:edit', 'withdraw_list', 'recharge_list',
  'withdraw_list:reconcile', 'recharge_list:reconcile',
];
/** Jackpot (issue 12): placing tickets for bettors, and the issue actions (refused to a branch: an issue holds every branch's tickets). */
const JACKPOT_KEYS = [
  'jackpot_bet', 'jackpot_bet:create', 'jackpot_identifier', 'jackpot_identifier:get_matches', 'jackpot_identifier:open_bets',
  'jackpot_identifier:bet_status', 'jackpot_identifier:change_result', 'jackpot_identifier:settle', 'jackpot_identifier:delete',
  // Held prizes (issue 23): asking for a payment of a prize of my branch, and deciding one another admin asked.
  'jackpot_held_prize', 'jackpot_held_prize:pay', 'jackpot_held_prize:pay_outside', 'jackpot_held_prize:approve',
];
/** Casino (issue 13): opening a game session for a bettor. */
const CASINO_KEYS = ['casino_list', 'casino_order', 'casino_order:detail', 'casino_order_details'];
const RACING_KEYS = ['racing', 'racing_order'];
/** TRON (issue 14): a bettor's deposit wallet, created, removed and collected; a held USDT withdrawal released. */
const TRON_KEYS = ['tron', 'tron:create', 'tron:delete', 'tron:collect', 'withdraw_list:approve'];
/** Messaging (issue 15, MSG): the board's reply, read and delete; sends and their deletion. */
const MESSAGING_KEYS = ['message_board', 'message_board:reply', 'message_board:delete', 'message_list', 'message_list:send', 'message_list:delete'];
/** Push and Telegram (issue 15, PUSH): a precision push to my branch's devices; unbinding my branch's Telegram accounts. */
const PUSH_KEYS = ['precision_push_device', 'precision_push_device:push', 'telegram_bot_binding', 'telegram_bot_binding:delete', 'push_device', 'push_device:edit', 'telegram_bot_binding:edit', 'app_config', 'app_config:create', 'app_config:edit', 'app_config:delete'];
/** Shop (issue 16, SHOP): one catalogue for the whole product, edited by any holder of its pages (no branch owns a row). */
/** SMS (issue 15, SMS): sends to my branch's bettors and the no-send list (settings stay with the super admin). */
const SMS_KEYS = ['sms_send', 'sms_send:send', 'no_send_sms', 'no_send_sms:create', 'no_send_sms:delete', 'no_send_sms:import'];
const SHOP_KEYS = ['mall_category_list', 'mall_category_list:edit', 'mall_category_list:delete', 'mall_brand_list', 'mall_brand_list:edit', 'mall_brand_list:delete', 'mall_product_list', 'mall_product_list:edit', 'mall_product_list:delete'];
const CONTENT_KEYS = ['rotation_type', 'rotation_type:edit', 'rotation_type:delete', 'rotation', 'rotation:edit', 'rotation:delete', 'image_text_type', 'image_text_type:edit', 'image_text_type:delete', 'image_text', 'image_text:edit', 'image_text:delete'];
/** Promotions (issue 17): campaigns of a branch (read, edit, delete, activate/pause, stats, award) and the approval of its bettors' qualifications. */
const PROMO_KEYS = ['activity_campaign', 'activity_campaign:create', 'activity_campaign:edit', 'activity_campaign:delete', 'activity_campaign:approve', 'activity_qualification:approve'];
const BRANCH_KEYS = [...AGENT_KEYS, ...PROMO_KEYS, ...BETTOR_KEYS, ...JACKPOT_KEYS, ...CASINO_KEYS, ...RACING_KEYS, ...TRON_KEYS, ...MESSAGING_KEYS, ...PUSH_KEYS, ...SMS_KEYS, ...SHOP_KEYS, ...CONTENT_KEYS];
const SUB_KEYS = ['system', 'administrators', 'user'];

type Who = 'super' | 'own' | 'other' | 'self' | 'ownRole';
const WHO: Who[] = ['super', 'own', 'other', 'self', 'ownRole'];
/** Allowed (a 2xx status), or the refusals accepted for the cell. */
type Want = 200 | 201 | 202 | readonly number[];
const REFUSED = [403, 404] as const;
const REFUSED_SELF = [403, 422] as const;

interface Target {
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Reads the state the call would change. */
  probe?: () => Promise<unknown>;
}
interface RouteCase {
  route: string;
  cells: Partial<Record<Who, Want>>;
  /** Builds fresh real objects for the cell and says how to call the route on them. */
  target: (who: Who) => Promise<Target>;
}

let t: TestApp;
let tokens: { super: string; agent: string };
let w: {
  root: number; branchRole: number; superRole: number; adminRole: number; roleA: number; roleB: number;
  agentA: number; agentB: number; a1: number; b1: number;
};
let n = 0;
const uniq = (p: string) => `${p}${(n += 1)}`;

const db = () => t.database.db;
async function ownedRole(name: string, keys: string[], createdBy: number | null) {
  const id = await makeRole(t, name, keys);
  await db().update(roles).set({ createdBy }).where(eq(roles.id, id));
  return id;
}
const adminProbe = (id: number) => async () => (await db().select().from(admins).where(eq(admins.id, id)))[0];
const roleProbe = (id: number) => async () => {
  const [r] = await db().select().from(roles).where(eq(roles.id, id));
  const keys = await db().select({ k: menuItems.key }).from(roleMenus).innerJoin(menuItems, eq(menuItems.id, roleMenus.menuId)).where(eq(roleMenus.roleId, id));
  return { r, keys: keys.map((k) => k.k).sort() };
};
const bettorProbe = (id: number) => async () => {
  const [b] = await db().select().from(bettors).where(eq(bettors.id, id));
  const [{ n: billRows }] = await db().select({ n: count() }).from(bills).where(eq(bills.bettorId, id));
  return { b, billRows };
};
/** A fresh admin strictly below agent A (side A) or agent B (side B). */
const freshAdmin = (side: 'A' | 'B', extra: Partial<typeof admins.$inferInsert> = {}) =>
  makeAdmin(t, uniq(side === 'A' ? 'xa' : 'xb'), side === 'A' ? w.roleA : w.roleB, side === 'A' ? w.a1 : w.b1, extra);
/** A fresh role created by an admin of the side's subtree (agent A1 or agent B1). */
const freshRole = (side: 'A' | 'B') => ownedRole(uniq(`role_${side}_`), SUB_KEYS, side === 'A' ? w.a1 : w.b1);
const freshBettor = async (side: 'A' | 'B', extra: Partial<typeof bettors.$inferInsert> = {}) => {
  const b = await makeBettor(t, side === 'A' ? w.a1 : w.b1, { cash: 50_000_00 });
  if (Object.keys(extra).length) await db().update(bettors).set(extra).where(eq(bettors.id, b.id));
  return b.id;
};
/** A fresh campaign of the side's branch (agent A or agent B), a custom award of 100.00 within a budget of 10,000.00. */
const freshCampaign = async (side: 'A' | 'B', status = 'draft') => {
  const [c] = await db()
    .insert(campaigns)
    .values({
      name: uniq('Campaign '), type: 'custom', startsAt: new Date(Date.now() - 86_400_000), endsAt: new Date(Date.now() + 86_400_000), agentId: side === 'A' ? w.agentA : w.agentB,
      rules: {}, reward: { kind: 'cash', fixed_cents: 100_00, percent_bps: null, cap_cents: null }, budgetCents: 10_000_00, status,
    })
    .returning();
  return c;
};
const campaignProbe = (id: number) => async () => ({
  c: (await db().select().from(campaigns).where(eq(campaigns.id, id)))[0] ?? null,
  rows: (await db().select({ n: count() }).from(activityQualifications).where(eq(activityQualifications.campaignId, id)))[0].n,
});
const campaignCase = (route: string, path: string, status: string, ok: 200 | 201 = 200, body?: (who: Who) => Promise<unknown>): RouteCase => ({
  route,
  cells: { super: ok, own: ok, other: REFUSED },
  target: async (who) => {
    const c = await freshCampaign(sideOf(who), status);
    return { url: `/api/v1/promotions/campaigns/${c.id}${path}`, body: body ? await body(who) : undefined, probe: campaignProbe(c.id) };
  },
});
/** The side of the object a cell acts on: the super admin and the "other" cell act on branch B. */
const sideOf = (who: Who): 'A' | 'B' => (who === 'own' ? 'A' : 'B');

const bettorCase = (route: string, path: string, body: (who: Who) => unknown, extra: Partial<typeof bettors.$inferInsert> = {}): RouteCase => ({
  route,
  cells: { super: 200, own: 200, other: REFUSED },
  target: async (who) => {
    const id = await freshBettor(sideOf(who), extra);
    return { url: `/api/v1/money/bettors/${id}${path}`, body: body(who), probe: bettorProbe(id) };
  },
});

/** The 13 upcoming feed matches jackpot issues are made of (rows of the feed, as the engine stores them). */
const JACKPOT_EVENTS = Array.from({ length: 13 }, (_, i) => `sr:match:om${i + 1}`);
let jackpotBetType = 0;
/**
 * A fresh jackpot issue made in the database: with its 13 matches, open for betting or not; `played`: the
 * matches kicked off two hours ago (not the feed's: a result before kick-off is refused, issue 23).
 */
async function freshIssue(opts: { matches: boolean; open: boolean; played?: boolean }) {
  const [issue] = await db()
    .insert(jackpotIssues)
    .values({ betTypeId: jackpotBetType, identifierPrefix: 'OM', identifier: uniq('OM'), startTime: new Date(), maxChoose: 20, betCloseAt: new Date(Date.now() + 3_600_000), betStatus: opts.open ? 2 : 1 })
    .returning();
  if (opts.matches && opts.played) {
    await db().insert(jackpotIssueMatches).values(JACKPOT_EVENTS.map((_, i) => ({ issueId: issue.id, position: i + 1, eventId: `sr:match:omp${issue.id}_${i + 1}`, startTime: new Date(Date.now() - 7_200_000) })));
  } else if (opts.matches) {
    await db().insert(jackpotIssueMatches).values(JACKPOT_EVENTS.map((eventId, i) => ({ issueId: issue.id, position: i + 1, eventId, startTime: new Date(Date.now() + 7_200_000) })));
  }
  return issue.id;
}
const issueProbe = (id: number) => async () => ({
  issue: (await db().select().from(jackpotIssues).where(eq(jackpotIssues.id, id)))[0],
  matches: await db().select().from(jackpotIssueMatches).where(eq(jackpotIssueMatches.issueId, id)),
  settlements: await db().select().from(jackpotSettlements).where(eq(jackpotSettlements.issueId, id)),
});
/** A fresh won ticket of a bettor of the side's sub-agent, with 1,000.00 held above the cap (rows written directly). */
async function freshHeldTicket(side: 'A' | 'B') {
  const bettorId = await freshBettor(side);
  const [tk] = await db()
    .insert(jackpotTickets)
    .values({
      serialNumber: uniq('JOM'), issueId: await freshIssue({ matches: false, open: false }), bettorId, agentId: side === 'A' ? w.a1 : w.b1, picks: Array(13).fill(1),
      lines: 1, unit: 100_00, stake: 100_00, status: 2, gross: 2_000_00, tax: 190_00, credited: 810_00, withheld: 1_000_00,
    })
    .returning();
  const probe = async () => ({
    ticket: (await db().select().from(jackpotTickets).where(eq(jackpotTickets.id, tk.id)))[0],
    payouts: await db().select().from(jackpotPrizePayouts).where(eq(jackpotPrizePayouts.ticketId, tk.id)),
    ...(await bettorProbe(bettorId)()),
  });
  return { ticket: tk, probe };
}
/** Asking for a payment of a held prize: of my branch's bettor only. */
const heldAskCase = (path: string, body: unknown): RouteCase => ({
  route: `POST /api/v1/jackpot/held_prizes/:id/${path}`,
  cells: { super: 201, own: 201, other: REFUSED },
  target: async (who) => {
    const { ticket, probe } = await freshHeldTicket(sideOf(who));
    return { url: `/api/v1/jackpot/held_prizes/${ticket.id}/${path}`, body, probe };
  },
});
/** Deciding a payment the side's sub-agent asked for: of my branch only. */
const heldDecideCase = (path: string, body?: unknown): RouteCase => ({
  route: `POST /api/v1/jackpot/prize_payouts/:id/${path}`,
  cells: { super: 200, own: 200, other: REFUSED },
  target: async (who) => {
    const { ticket, probe } = await freshHeldTicket(sideOf(who));
    const [p] = await db()
      .insert(jackpotPrizePayouts)
      .values({ ticketId: ticket.id, bettorId: ticket.bettorId, agentId: ticket.agentId, kind: 1, amount: 400_00, reason: 'Matrix', requestedBy: ticket.agentId })
      .returning();
    return { url: `/api/v1/jackpot/prize_payouts/${p.id}/${path}`, body, probe };
  },
});
/** An issue action: the super admin changes the issue; agent A (holding the button) is refused, the issue unchanged. */
const issueCase = (route: string, path: string, opts: Parameters<typeof freshIssue>[0], body?: unknown): RouteCase => ({
  route,
  cells: { super: 200, own: [403] },
  target: async () => {
    const id = await freshIssue(opts);
    return { url: `/api/v1/jackpot/issues/${id}${path}`, body, probe: issueProbe(id) };
  },
});

const CASES: RouteCase[] = [
  // Roles
  {
    route: 'POST /api/v1/system/roles',
    cells: { super: 201, own: 201 },
    target: async () => {
      const name = uniq('new_role_');
      return { url: '/api/v1/system/roles', body: { name, remarks: '' }, probe: async () => (await db().select().from(roles).where(eq(roles.name, name))).length };
    },
  },
  {
    route: 'POST /api/v1/system/roles (serves_superior_branch)',
    cells: { super: 201, own: [403] },
    target: async () => {
      const name = uniq('serving_role_');
      return { url: '/api/v1/system/roles', body: { name, remarks: '', serves_superior_branch: true }, probe: async () => (await db().select().from(roles).where(eq(roles.name, name))).length };
    },
  },
  {
    route: 'PUT /api/v1/system/roles/:id',
    cells: { super: 200, own: 200, other: REFUSED, ownRole: REFUSED },
    target: async (who) => {
      const id = who === 'ownRole' ? w.branchRole : await freshRole(sideOf(who));
      return { url: `/api/v1/system/roles/${id}`, body: { name: uniq('renamed_'), remarks: 'edited' }, probe: roleProbe(id) };
    },
  },
  {
    route: 'PUT /api/v1/system/roles/:id (serves_superior_branch)',
    cells: { super: 200, own: [403], other: REFUSED, ownRole: REFUSED },
    target: async (who) => {
      const id = who === 'ownRole' ? w.branchRole : await freshRole(sideOf(who));
      const [{ name }] = await db().select({ name: roles.name }).from(roles).where(eq(roles.id, id));
      return { url: `/api/v1/system/roles/${id}`, body: { name, remarks: '', serves_superior_branch: true }, probe: roleProbe(id) };
    },
  },
  {
    route: 'DELETE /api/v1/system/roles/:id',
    cells: { super: 200, own: 200, other: REFUSED, ownRole: REFUSED },
    target: async (who) => {
      const id = who === 'ownRole' ? w.branchRole : await freshRole(sideOf(who));
      return { url: `/api/v1/system/roles/${id}`, probe: roleProbe(id) };
    },
  },
  {
    route: 'PUT /api/v1/system/roles/:id/permissions',
    cells: { super: 200, own: 200, other: REFUSED, ownRole: [403, 404, 422] },
    target: async (who) => {
      let id = w.branchRole;
      if (who !== 'ownRole') {
        id = await freshRole(sideOf(who));
        await freshAdmin(sideOf(who), { roleId: id });
      }
      return { url: `/api/v1/system/roles/${id}/permissions`, body: { keys: ['log'] }, probe: roleProbe(id) };
    },
  },
  // Administrators
  {
    route: 'POST /api/v1/system/administrators',
    cells: { super: 201, own: 201, other: REFUSED },
    target: async (who) => {
      const account = uniq('created_');
      const superior = who === 'own' ? w.a1 : w.b1;
      const role = who === 'super' ? w.roleB : w.roleA;
      return {
        url: '/api/v1/system/administrators',
        body: { account, role_id: role, superior_id: superior, share_ratio: 0.05 },
        probe: async () => (await db().select().from(admins).where(eq(admins.account, account))).length,
      };
    },
  },
  {
    route: 'PUT /api/v1/system/administrators/:id',
    cells: { super: 200, own: 200, other: REFUSED, self: [403] },
    target: async (who) => {
      const id = who === 'self' ? w.agentA : await freshAdmin(sideOf(who));
      const body = who === 'self' ? { share_ratio: 0.9 } : { name: uniq('renamed_'), share_ratio: 0.05 };
      return { url: `/api/v1/system/administrators/${id}`, body, probe: adminProbe(id) };
    },
  },
  {
    route: 'POST /api/v1/system/administrators/:id/disable',
    cells: { super: 200, own: 200, other: REFUSED, self: REFUSED_SELF },
    target: async (who) => {
      const id = who === 'self' ? w.agentA : await freshAdmin(sideOf(who));
      return { url: `/api/v1/system/administrators/${id}/disable`, body: { disabled: 2 }, probe: adminProbe(id) };
    },
  },
  {
    route: 'POST /api/v1/system/administrators/:id/reset-password',
    cells: { super: 200, own: 200, other: REFUSED, self: REFUSED_SELF },
    target: async (who) => {
      const id = who === 'self' ? w.agentA : await freshAdmin(sideOf(who));
      return { url: `/api/v1/system/administrators/${id}/reset-password`, body: { password: 'Fresh#2026pass' }, probe: adminProbe(id) };
    },
  },
  {
    route: 'POST /api/v1/system/administrators/:id/unbind-google',
    cells: { super: 200, own: 200, other: REFUSED, self: REFUSED_SELF },
    target: async (who) => {
      const bound = { googleBound: 1, googleSecret: 'JBSWY3DPEHPK3PXP' };
      const id = who === 'self' ? w.agentA : await freshAdmin(sideOf(who), bound);
      if (who === 'self') await db().update(admins).set(bound).where(eq(admins.id, id));
      return { url: `/api/v1/system/administrators/${id}/unbind-google`, probe: adminProbe(id) };
    },
  },
  {
    route: 'POST /api/v1/system/administrators/notify',
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const id = await freshAdmin(sideOf(who));
      return {
        url: '/api/v1/system/administrators/notify',
        body: { admin_ids: [id], content: 'Check the queue' },
        probe: async () => (await db().select().from(notifications).where(eq(notifications.adminId, id))).length,
      };
    },
  },
  // Bettors
  bettorCase('POST /api/v1/money/bettors/:id/balance', '/balance', () => ({ amount: 500_00, remark: 'matrix' })),
  bettorCase('POST /api/v1/money/bettors/:id/credit', '/credit', () => ({ amount: 500_00, remark: 'matrix' })),
  bettorCase('PUT /api/v1/money/bettors/:id/agent', '/agent', (who) => ({ agent_id: who === 'super' ? w.agentB : w.agentA })),
  {
    route: 'PUT /api/v1/money/bettors/:id/agent (to another branch)',
    cells: { super: 200, own: REFUSED },
    target: async () => {
      const id = await freshBettor('A');
      return { url: `/api/v1/money/bettors/${id}/agent`, body: { agent_id: w.b1 }, probe: bettorProbe(id) };
    },
  },
  bettorCase('PUT /api/v1/money/bettors/:id/invitation-code', '/invitation-code', () => ({ invitation_code: uniq('CODE') })),
  bettorCase('POST /api/v1/money/bettors/:id/reset-password', '/reset-password', () => ({ password: 'abc12345' })),
  // A number ported to another network (issue 28): recorded for a bettor of the caller's branch only.
  ...(['POST', 'DELETE'] as const).map((method): RouteCase => ({
    route: `${method} /api/v1/money/bettors/:id/ported`,
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const id = await freshBettor(sideOf(who));
      const [b] = await db().select({ phone: bettors.phone }).from(bettors).where(eq(bettors.id, id));
      if (method === 'DELETE') await db().insert(portedNumbers).values({ phone: b!.phone, payType: PAY_TYPE.airtel, markedBy: w.root, remark: 'matrix' });
      const probe = async () => (await db().select({ p: portedNumbers.payType }).from(portedNumbers).where(eq(portedNumbers.phone, b!.phone)))[0]?.p ?? null;
      return { url: `/api/v1/money/bettors/${id}/ported`, body: method === 'POST' ? { pay_type: PAY_TYPE.airtel, remark: 'ownership' } : undefined, probe };
    },
  })),
  bettorCase('POST /api/v1/money/bettors/:id/disable', '/disable', () => ({ disabled: 2 })),
  bettorCase('PUT /api/v1/money/bettors/:id/risk', '/risk', () => ({ risk_level: 3 })),
  {
    route: 'POST /api/v1/money/bettors/refresh',
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const id = await freshBettor(sideOf(who), { onlineStatus: 2 });
      return { url: '/api/v1/money/bettors/refresh', body: { bettor_ids: [id] } };
    },
  },
  {
    route: 'POST /api/v1/money/activity_qualification/:id/approve',
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const bettorId = await freshBettor(sideOf(who));
      const [b] = await db().select().from(bettors).where(eq(bettors.id, bettorId));
      const [a] = await db().insert(activityQualifications).values({ bettorId, agentId: b.agentId, activity: 'First deposit' }).returning();
      return {
        url: `/api/v1/money/activity_qualification/${a.id}/approve`,
        body: { reward: 100_00 },
        probe: async () => ({ a: (await db().select().from(activityQualifications).where(eq(activityQualifications.id, a.id)))[0], bettor: await bettorProbe(bettorId)() }),
      };
    },
  },
  campaignCase('PUT /api/v1/promotions/campaigns/:id', '', 'draft', 200, async () => ({ name: uniq('Renamed ') })),
  campaignCase('DELETE /api/v1/promotions/campaigns/:id', '', 'draft'),
  campaignCase('POST /api/v1/promotions/campaigns/:id/activate', '/activate', 'draft'),
  campaignCase('POST /api/v1/promotions/campaigns/:id/pause', '/pause', 'active'),
  campaignCase('POST /api/v1/promotions/campaigns/:id/award', '/award', 'active', 201, async (who) => ({ bettor_id: await freshBettor(sideOf(who)) })),
  {
    route: 'POST /api/v1/promotions/qualifications/:id/approve',
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const c = await freshCampaign(sideOf(who), 'active');
      const bettorId = await freshBettor(sideOf(who));
      const [b] = await db().select().from(bettors).where(eq(bettors.id, bettorId));
      const [a] = await db()
        .insert(activityQualifications)
        .values({ bettorId, agentId: b.agentId, activity: c.name, campaignId: c.id, periodKey: 'all', reward: 100_00 })
        .returning();
      return {
        url: `/api/v1/promotions/qualifications/${a.id}/approve`,
        probe: async () => ({ a: (await db().select().from(activityQualifications).where(eq(activityQualifications.id, a.id)))[0], bettor: await bettorProbe(bettorId)() }),
      };
    },
  },
  {
    // A campaign for an agent of another branch is refused; the super admin's is for branch B.
    route: 'POST /api/v1/promotions/campaigns',
    cells: { super: 201, own: 201, other: REFUSED },
    target: async (who) => {
      const name = uniq('New campaign ');
      return {
        url: '/api/v1/promotions/campaigns',
        body: {
          name, type: 'custom', starts_at: new Date(Date.now() - 86_400_000).toISOString(), ends_at: new Date(Date.now() + 86_400_000).toISOString(),
          agent_id: sideOf(who) === 'A' ? w.agentA : w.agentB, rules: {}, reward: { kind: 'cash', fixed_cents: 100_00 }, budget_cents: 10_000_00,
        },
        probe: async () => (await db().select({ n: count() }).from(campaigns).where(eq(campaigns.name, name)))[0].n,
      };
    },
  },
  {
    // The batch: a row of branch A with one of the cell's side; one of another branch refuses the whole call (row A stays pending).
    route: 'POST /api/v1/promotions/qualifications/approve',
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const rows: number[] = [];
      for (const side of ['A', sideOf(who)] as const) {
        const c = await freshCampaign(side, 'active');
        const bettorId = await freshBettor(side);
        const [b] = await db().select().from(bettors).where(eq(bettors.id, bettorId));
        const [a] = await db().insert(activityQualifications).values({ bettorId, agentId: b.agentId, activity: c.name, campaignId: c.id, periodKey: 'all', reward: 100_00 }).returning();
        rows.push(a.id);
      }
      return {
        url: '/api/v1/promotions/qualifications/approve',
        body: { ids: rows },
        probe: async () => (await db().select({ id: activityQualifications.id, status: activityQualifications.status }).from(activityQualifications).where(sql`${activityQualifications.id} in (${sql.join(rows.map((id) => sql`${id}`), sql`, `)})`)).map((r) => [r.id, r.status]).sort(),
      };
    },
  },
  // Sandbox routes (bettor-facing requests on a bettor id)
  ...([['withdrawals', withdrawals], ['recharges', recharges]] as const).map(([path, table]): RouteCase => ({
    route: `POST /api/v1/sandbox/${path}`,
    cells: { super: 201, own: 201, other: REFUSED },
    target: async (who) => {
      const id = await freshBettor(sideOf(who));
      return {
        url: `/api/v1/sandbox/${path}`,
        body: { bettor_id: id, pay_type: PAY_TYPE.tigo, amount: 2_000_00 },
        probe: async () => ({ rows: (await db().select().from(table).where(eq(table.bettorId, id))).length, ...(await bettorProbe(id)()) }),
      };
    },
  })),
  // Reconciliation of a payment in doubt: a real withdrawal / recharge of the side, flagged by a re-query.
  ...([
    ['withdrawals', withdrawals, (bettorId: number) => withdrawalAwaitingReconciliation(t, { bettorId, approverId: w.root }), 'not_paid'],
    ['recharges', recharges, (bettorId: number) => rechargeAwaitingReconciliation(t, { bettorId, adminId: w.root }), 'credited'],
  ] as const).map(([path, table, awaiting, outcome]): RouteCase => ({
    route: `POST /api/v1/money/${path}/:id/reconcile`,
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const bettorId = await freshBettor(sideOf(who));
      const { id } = await awaiting(bettorId);
      return {
        url: `/api/v1/money/${path}/${id}/reconcile`,
        body: { outcome, reference: uniq('STMT-'), remark: 'Per the operator statement' },
        probe: async () => {
          // last_query_at is the periodic stuck-queue sweep's bookkeeping, not an effect of the call.
          const [{ lastQueryAt: _, ...row }] = await db().select().from(table).where(eq(table.id, id));
          return { row, ...(await bettorProbe(bettorId)()) };
        },
      };
    },
  })),
  // Jackpot (issue 12): a ticket for a bettor of the branch; the issue actions.
  {
    route: 'POST /api/v1/jackpot/tickets',
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const bettorId = await freshBettor(sideOf(who));
      const issueId = await freshIssue({ matches: true, open: true });
      return {
        url: '/api/v1/jackpot/tickets',
        body: { issue_id: issueId, bettor_id: bettorId, picks: Array.from({ length: 13 }, (_, i) => (i === 0 ? 3 : 1)) },
        probe: async () => ({ tickets: (await db().select().from(jackpotTickets).where(eq(jackpotTickets.bettorId, bettorId))).length, ...(await bettorProbe(bettorId)()), issue: await issueProbe(issueId)() }),
      };
    },
  },
  issueCase('PUT /api/v1/jackpot/issues/:id/matches', '/matches', { matches: false, open: false }, { event_ids: JACKPOT_EVENTS }),
  issueCase('POST /api/v1/jackpot/issues/:id/open', '/open', { matches: true, open: false }),
  issueCase('PUT /api/v1/jackpot/issues/:id/bet_status', '/bet_status', { matches: true, open: true }, { bet_status: 3 }),
  issueCase('PUT /api/v1/jackpot/issues/:id/results', '/results', { matches: true, open: false, played: true }, { results: [{ position: 1, result: 2, reason: 'Matrix override' }] }),
  // Settling and deleting move every branch's tickets: the whole book only (the super admin's settle is accepted, 202).
  {
    route: 'POST /api/v1/jackpot/issues/:id/settle',
    cells: { super: 202, own: [403] },
    target: async () => {
      const id = await freshIssue({ matches: true, open: false, played: true });
      await db().update(jackpotIssueMatches).set({ result: 0, resultSource: 'operator', overrideReason: 'Matrix result' }).where(eq(jackpotIssueMatches.issueId, id));
      const preview = await t.call('POST', `/api/v1/jackpot/issues/${id}/settle/preview`, { token: tokens.super });
      expect(preview.status, JSON.stringify(preview.body)).toBe(200);
      return { url: `/api/v1/jackpot/issues/${id}/settle`, body: { fingerprint: preview.body.fingerprint }, probe: issueProbe(id) };
    },
  },
  // Casino (issue 13): a game session for a bettor of the caller's branch only.
  {
    route: 'POST /api/v1/casino/sessions',
    cells: { super: 201, own: 201, other: REFUSED },
    target: async (who) => {
      const bettorId = await freshBettor(sideOf(who));
      const [game] = await db().select({ id: casinoGames.id }).from(casinoGames).limit(1);
      return {
        url: '/api/v1/casino/sessions',
        body: { bettor_id: bettorId, game_id: game!.id },
        probe: async () => (await db().select({ n: count() }).from(casinoSessions).where(eq(casinoSessions.bettorId, bettorId)))[0],
      };
    },
  },
  // The wallet API refuses any admin credential: a correctly signed bet sent with an admin token moves nothing (200, RS_ERROR_INVALID_PARTNER).
  {
    route: 'POST /wallet/v1/:provider/transaction/bet',
    cells: { super: [200], own: [200] },
    target: async (who) => {
      const bettorId = await freshBettor(sideOf(who));
      const [game] = await db().select().from(casinoGames).limit(1);
      const s = await openSession(db(), bettorId, game!.id);
      const uuid = uniq('matrix-bet-');
      const body = { request_uuid: uuid, token: s.token, user: String(bettorId), game_code: game!.gameCode, round: uuid, transaction_uuid: uuid, currency: 'TZS', amount: 10_00 };
      const ts = Math.floor(Date.now() / 1000);
      const signature = signWalletBody({ authKind: 'hmac', secret: (await providerSecretFor(db(), 'sandbox'))! }, ts, JSON.stringify(body));
      return {
        url: '/wallet/v1/sandbox/transaction/bet',
        body,
        headers: { 'x-dau-timestamp': String(ts), 'x-dau-signature': signature },
        probe: async () => ({ ...(await bettorProbe(bettorId)()), txns: (await db().select({ n: count() }).from(casinoTransactions).where(eq(casinoTransactions.transactionUuid, uuid)))[0] }),
      };
    },
  },
  // TRON (issue 14): a deposit wallet for a bettor of the caller's branch only; its soft removal likewise.
  {
    route: 'POST /api/v1/tron/wallets',
    cells: { super: 201, own: 201, other: REFUSED },
    target: async (who) => {
      const bettorId = await freshBettor(sideOf(who));
      return {
        url: '/api/v1/tron/wallets',
        body: { role: 1, bettor_id: bettorId },
        probe: async () => (await db().select({ n: count() }).from(tronWallets).where(eq(tronWallets.bettorId, bettorId)))[0],
      };
    },
  },
  {
    route: 'DELETE /api/v1/tron/wallets/:id',
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const { walletId } = await depositAddressFor(db(), await freshBettor(sideOf(who)));
      return {
        url: `/api/v1/tron/wallets/${walletId}`,
        body: { confirm: true },
        probe: async () => (await db().select({ removed: tronWallets.removed }).from(tronWallets).where(eq(tronWallets.id, walletId)))[0],
      };
    },
  },
  {
    route: 'POST /api/v1/tron/wallets/:id/collect',
    cells: { super: 202, own: 202, other: REFUSED },
    target: async (who) => {
      await hotWalletForMatrix();
      const { walletId } = await depositAddressFor(db(), await freshBettor(sideOf(who)));
      return {
        url: `/api/v1/tron/wallets/${walletId}/collect`,
        probe: async () => (await db().execute(sql`select count(*)::int as n from pgboss.job where name = ${COLLECT_JOB} and data->>'walletId' = ${String(walletId)}`) as unknown as { rows: unknown[] }).rows[0],
      };
    },
  },
  {
    route: 'POST /api/v1/tron/withdrawals/:id/release',
    // Issue 29: the whole book asks and a second whole-book admin approves (the super admin's ask waits: 202).
    cells: { super: 202, own: [403], other: REFUSED },
    target: async (who) => {
      const hot = await hotWalletForMatrix();
      // A USDT withdrawal to one of our own addresses: held for review.
      const { withdrawal, sweep } = await requestUsdtWithdrawal(db(), { bettorId: await freshBettor(sideOf(who)), amount: 10_000_00, toAddress: hot });
      const url = `/api/v1/tron/withdrawals/${withdrawal.id}/release`;
      return {
        url,
        body: { remark: 'Checked with the bettor' },
        probe: async () => ({
          remark: (await db().select({ remark: tronSweeps.remark }).from(tronSweeps).where(eq(tronSweeps.id, sweep.id)))[0],
          pending: (await db().select({ id: pendingChanges.id }).from(pendingChanges).where(eq(pendingChanges.url, url))).length,
        }),
      };
    },
  },
  heldAskCase('pay', { amount: 400_00, reason: 'Matrix payout' }),
  heldAskCase('pay_outside', { amount: 400_00, reference: 'TT-MATRIX', reason: 'Matrix payout' }),
  heldDecideCase('approve'),
  heldDecideCase('refuse', { reason: 'Matrix refusal' }),
  {
    route: 'DELETE /api/v1/jackpot/issues/:id',
    cells: { super: 202, own: [403] },
    target: async () => {
      const id = await freshIssue({ matches: true, open: true });
      return { url: `/api/v1/jackpot/issues/${id}`, body: { reason: 'Matrix delete' }, probe: issueProbe(id) };
    },
  },
  // Messaging (issue 15, MSG): board messages of my branch's bettors; sends only to my branch's bettors; sends of my branch.
  ...(['read', 'reply', 'delete'] as const).map((action): RouteCase => ({
    route: action === 'delete' ? 'DELETE /api/v1/messaging/board/:id' : `POST /api/v1/messaging/board/:id/${action}`,
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const row = await postBoardMessage(db(), await freshBettor(sideOf(who)), 'Matrix board message');
      return {
        url: action === 'delete' ? `/api/v1/messaging/board/${row.id}` : `/api/v1/messaging/board/${row.id}/${action}`,
        body: action === 'reply' ? { content: 'Matrix reply' } : undefined,
        probe: async () => (await db().select().from(boardMessages).where(eq(boardMessages.id, row.id)))[0] ?? null,
      };
    },
  })),
  ...(['bettors', 'branch'] as const).map((kind): RouteCase => ({
    route: 'POST /api/v1/messaging/messages',
    cells: { super: 201, own: 201, other: REFUSED },
    target: async (who) => {
      const title = uniq('matrix-message-');
      const target = kind === 'bettors' ? { kind, bettor_ids: [await freshBettor(sideOf(who))] } : { kind, agent_id: sideOf(who) === 'A' ? w.a1 : w.b1 };
      return {
        url: '/api/v1/messaging/messages',
        body: { title, content: 'Matrix', target },
        probe: async () => (await db().select({ n: count() }).from(messages).where(eq(messages.title, title)))[0],
      };
    },
  })),
  {
    route: 'POST /api/v1/sandbox/messaging/board',
    cells: { super: 201, own: 201, other: REFUSED },
    target: async (who) => {
      const bettorId = await freshBettor(sideOf(who));
      return {
        url: '/api/v1/sandbox/messaging/board',
        body: { bettor_id: bettorId, content: 'Matrix board' },
        probe: async () => (await db().select({ n: count() }).from(boardMessages).where(eq(boardMessages.bettorId, bettorId)))[0],
      };
    },
  },
  {
    route: 'DELETE /api/v1/messaging/messages/:id',
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const [m] = await db()
        .insert(messages)
        .values({ title: uniq('matrix-sent-'), content: 'x', audience: 'all', allUsers: true, status: 'sent', sendAt: new Date(), sentAt: new Date(), senderAdminId: sideOf(who) === 'A' ? w.a1 : w.b1 })
        .returning();
      return { url: `/api/v1/messaging/messages/${m!.id}`, probe: async () => (await db().select().from(messages).where(eq(messages.id, m!.id)))[0] };
    },
  },
  // Push and Telegram (issue 15, PUSH): a precision push names devices of my branch only (403 OUT_OF_SCOPE
  // otherwise, nothing queued); a binding is unbound by the branch of its admin or of its bettor's agent.
  {
    route: 'POST /api/v1/push/precision',
    cells: { super: 202, own: 202, other: REFUSED },
    target: async (who) => {
      const title = uniq('matrix-push-');
      const deviceId = await registerDevice(db(), { bettorId: await freshBettor(sideOf(who)), token: uniq('matrix-token-'), platform: 'android' });
      return { url: '/api/v1/push/precision', body: { title, body: 'Matrix', device_ids: [deviceId] }, probe: async () => (await db().select({ n: count() }).from(pushSends).where(eq(pushSends.title, title)))[0] };
    },
  },
  // The bettor app's racing bet (sandbox routes only): refused for another branch's bettor, no bet, no bill.
  {
    route: 'POST /api/v1/sandbox/racing/bets',
    cells: { super: 201, own: 201, other: REFUSED },
    target: async (who) => {
      const bettorId = await freshBettor(sideOf(who));
      return {
        url: '/api/v1/sandbox/racing/bets',
        body: { bettor_id: bettorId, stake: 10_00 },
        probe: async () => ({ bets: (await db().select({ n: count() }).from(racingBets).where(eq(racingBets.bettorId, bettorId)))[0], ...(await bettorProbe(bettorId)()) }),
      };
    },
  },
  // The bettor app's USDT withdrawal (sandbox routes only, issue 29): refused for another branch's bettor, nothing held.
  {
    route: 'POST /api/v1/sandbox/tron/withdrawals',
    cells: { super: 201, own: 201, other: REFUSED },
    target: async (who) => {
      const hot = await hotWalletForMatrix();
      const bettorId = await freshBettor(sideOf(who));
      return {
        url: '/api/v1/sandbox/tron/withdrawals',
        body: { bettor_id: bettorId, amount: 10_000_00, to_address: hot },
        probe: async () => ({ ...(await bettorProbe(bettorId)()), withdrawals: (await db().select({ n: count() }).from(withdrawals).where(eq(withdrawals.bettorId, bettorId)))[0] }),
      };
    },
  },
  // The sandbox install of the app (sandbox routes only): refused for another branch's bettor before the sandbox FCM is asked.
  {
    route: 'POST /api/v1/sandbox/push/devices',
    cells: { other: REFUSED },
    target: async (who) => {
      const bettorId = await freshBettor(sideOf(who));
      return { url: '/api/v1/sandbox/push/devices', body: { bettor_id: bettorId, platform: 'android' }, probe: async () => (await db().select({ n: count() }).from(pushDevices).where(eq(pushDevices.bettorId, bettorId)))[0] };
    },
  },
  ...(['admin', 'bettor'] as const).map((subject): RouteCase => ({
    route: 'DELETE /api/v1/telegram/bindings/:id',
    cells: { super: 200, own: 200, other: REFUSED },
    target: async (who) => {
      const subjectId = subject === 'admin' ? await freshAdmin(sideOf(who)) : await freshBettor(sideOf(who));
      const [row] = await db()
        .insert(telegramBindings)
        .values({ subject, adminId: subject === 'admin' ? subjectId : null, bettorId: subject === 'bettor' ? subjectId : null, tgUserId: 5_000_000 + (n += 1), chatId: 5_000_000 + n, firstName: 'Matrix' })
        .returning();
      return { url: `/api/v1/telegram/bindings/${row!.id}`, probe: async () => (await db().select().from(telegramBindings).where(eq(telegramBindings.id, row!.id)))[0] ?? null };
    },
  })),
  // SMS (issue 15, SMS): an agent texts only their own branch's bettors: another branch's number is not counted,
  // so nothing is left to send (422 SMS_NO_RECIPIENTS) and no send is created.
  ...(['one', 'filter'] as const).map((kind): RouteCase => ({
    route: 'POST /api/v1/sms/sends',
    cells: { super: 201, own: 201, other: [422] },
    target: async (who) => {
      const content = uniq('matrix-sms-');
      const bettorId = await freshBettor(sideOf(who));
      const [b] = await db().select({ phone: bettors.phone }).from(bettors).where(eq(bettors.id, bettorId));
      const target = kind === 'one' ? { kind, phone: b!.phone } : { kind, filter: { id: bettorId } };
      return { url: '/api/v1/sms/sends', body: { content, target }, probe: async () => (await db().select({ n: count() }).from(smsSends).where(eq(smsSends.content, content)))[0] };
    },
  })),
  // The no-send list is the product's, not a branch's: any holder of the page adds a number, but only the
  // whole book removes one (a branch would otherwise lift another branch's STOP): 403 WHOLE_BOOK_ONLY.
  {
    route: 'DELETE /api/v1/sms/exclusions/:id',
    cells: { super: 200, own: [403], other: [403] },
    target: async () => {
      const [row] = await db().insert(smsExclusions).values({ phone: `+25571${String(1_000_000 + (n += 1)).slice(-7)}`, source: 'manual' }).returning();
      return { url: `/api/v1/sms/exclusions/${row!.id}`, probe: async () => (await db().select().from(smsExclusions).where(eq(smsExclusions.id, row!.id)))[0] ?? null };
    },
  },
  {
    route: 'PUT /api/v1/sms/config',
    cells: { super: 200, own: [403] },
    // (The sender and the API key wait for a second admin: duties.test.ts; the rate applies at once.)
    target: async () => ({ url: '/api/v1/sms/config', body: { rate_per_second: 10 + ((n += 1) % 40) }, probe: async () => (await t.call('GET', '/api/v1/sms/config', { token: tokens.super })).body.rate_per_second }),
  },
  // The mobile-money providers' accounts and routing decide where every branch's money goes: the whole book,
  // and a second admin (the super admin's change waits for approval: 202).
  {
    route: 'PUT /api/v1/payments/providers/:provider',
    cells: { super: 202, own: [403] },
    target: async () => ({
      url: '/api/v1/payments/providers/airtel',
      body: { base_url: `https://openapi${(n += 1)}.example.test` },
      // The change waits for a second admin: its effect is the pending change.
      probe: async () => (await db().select({ id: pendingChanges.id }).from(pendingChanges).where(eq(pendingChanges.setting, 'payment_providers'))).length,
    }),
  },
  {
    route: 'PUT /api/v1/payments/routing',
    cells: { super: 202, own: [403] },
    target: async () => ({
      url: '/api/v1/payments/routing',
      body: { provider_of: { '4': 'aggregator' } },
      probe: async () => (await db().select({ id: pendingChanges.id }).from(pendingChanges).where(eq(pendingChanges.setting, 'payment_routing'))).length,
    }),
  },
  // The FCM project, the Telegram bot and the app versions serve every branch: a holder of the button who does
  // not see the whole book is refused (403 WHOLE_BOOK_ONLY), whatever the body.
  {
    route: 'PUT /api/v1/push/config',
    cells: { super: 200, own: [403] },
    target: async () => ({ url: '/api/v1/push/config', body: { rate_per_second: 100 + ((n += 1) % 900) }, probe: async () => (await t.call('GET', '/api/v1/push/config', { token: tokens.super })).body }),
  },
  {
    route: 'PUT /api/v1/telegram/config',
    cells: { super: 200, own: [403] },
    target: async () => {
      const probe = async () => (await t.call('GET', '/api/v1/telegram/config', { token: tokens.super })).body;
      return { url: '/api/v1/telegram/config', body: { notify_admins: !(await probe()).notify_admins }, probe };
    },
  },
  ...(['POST', 'PUT', 'DELETE'] as const).map((method): RouteCase => ({
    route: method === 'POST' ? 'POST /api/v1/messaging/app_versions' : `${method} /api/v1/messaging/app_versions/:id`,
    cells: { super: method === 'POST' ? 201 : 200, own: [403] },
    target: async () => {
      const version = () => `9.${(n += 1)}.0`;
      const list = async () => (await t.call('GET', '/api/v1/messaging/app_versions?page_size=200', { token: tokens.super })).body.items.map((v: { id: number; version: string }) => `${v.id}:${v.version}`).sort();
      if (method === 'POST') return { url: '/api/v1/messaging/app_versions', body: { platform: 'android', version: version(), version_code: n, download_url: 'https://example.com/dau.apk' }, probe: list };
      const made = await t.call('POST', '/api/v1/messaging/app_versions', { token: tokens.super, body: { platform: 'ios', version: version(), version_code: n, download_url: 'https://example.com/dau.ipa' } });
      return { url: `/api/v1/messaging/app_versions/${made.body.id}`, body: method === 'PUT' ? { version: version() } : undefined, probe: list };
    },
  })),
  // Shop (issue 16, SHOP): a row of the catalogue is nobody's: every holder of the page edits or deletes any.
  ...(['categories', 'brands', 'products'] as const).flatMap((kind) =>
    (['PUT', 'DELETE'] as const).map((method): RouteCase => ({
      route: `${method} /api/v1/shop/${kind}/:id`,
      cells: { super: 200, own: 200, other: 200 },
      target: async () => {
        const [cat] = await db().insert(mallCategories).values({ title: uniq('matrix-cat-') }).returning();
        const [brand] = await db().insert(mallBrands).values({ name: uniq('matrix-brand-') }).returning();
        const [product] = await db().insert(mallProducts).values({ title: uniq('matrix-product-'), categoryId: cat!.id, price: 1_000_00 }).returning();
        if (kind !== 'products') await db().delete(mallProducts).where(eq(mallProducts.id, product!.id));
        const table = kind === 'categories' ? mallCategories : kind === 'brands' ? mallBrands : mallProducts;
        const id = kind === 'categories' ? cat!.id : kind === 'brands' ? brand!.id : product!.id;
        const body = method === 'DELETE' ? undefined : kind === 'brands' ? { name: uniq('renamed-') } : { title: uniq('renamed-') };
        return { url: `/api/v1/shop/${kind}/${id}`, body, probe: async () => (await db().select().from(table).where(eq(table.id, id)))[0] ?? null };
      },
    })),
  ),
  // Content (issue 16, FILES): banners and articles are the site's, nobody's: every holder of the page edits or deletes any.
  ...(['rotation_types', 'rotations', 'image_text_types', 'image_texts'] as const).flatMap((kind) =>
    (['PUT', 'DELETE'] as const).map((method): RouteCase => ({
      route: `${method} /api/v1/content/${kind}/:id`,
      cells: { super: 200, own: 200, other: 200 },
      target: async () => {
        const [group] = await db().insert(rotationTypes).values({ code: uniq('g-').toLowerCase().replace(/[^a-z0-9_-]/g, ''), name: 'Matrix' }).returning();
        const [kindRow] = await db().insert(imageTextTypes).values({ code: uniq('k-').toLowerCase().replace(/[^a-z0-9_-]/g, ''), name: 'Matrix' }).returning();
        const table = kind === 'rotation_types' ? rotationTypes : kind === 'image_text_types' ? imageTextTypes : kind === 'rotations' ? rotations : imageTexts;
        let id: number;
        if (kind === 'rotations') id = (await db().insert(rotations).values({ typeId: group!.id, picture: 'https://cdn.example.com/a.png', title: 'Matrix' }).returning())[0]!.id;
        else if (kind === 'image_texts') id = (await db().insert(imageTexts).values({ typeId: kindRow!.id, title: 'Matrix', body: '<p>x</p>' }).returning())[0]!.id;
        else id = kind === 'rotation_types' ? group!.id : kindRow!.id;
        const body = method === 'DELETE' ? undefined : kind.endsWith('_types') ? { name: uniq('renamed-') } : { title: uniq('renamed-') };
        return { url: `/api/v1/content/${kind}/${id}`, body, probe: async () => (await db().select().from(table).where(eq(table.id, id)))[0] ?? null };
      },
    })),
  ),
  // Operations (issue 16, OPS): installation-wide tools, no branch owns a row; a branch agent holds none of their keys.
  {
    route: 'DELETE /api/v1/operations/servers/:id',
    cells: { super: 200, own: [403] },
    target: async () => {
      const id = crypto.randomUUID();
      const old = new Date(Date.now() - 120_000);
      await db().insert(serverProcesses).values({ id, host: uniq('matrix-host-'), pid: 1, version: '0', databaseKind: 'pg', startedAt: old, lastBeatAt: old });
      return { url: `/api/v1/operations/servers/${id}`, probe: async () => (await db().select().from(serverProcesses).where(eq(serverProcesses.id, id)))[0] ?? null };
    },
  },
  {
    route: 'POST /api/v1/operations/script-runs/:id/approve',
    cells: { super: 200, own: [403] },
    target: async () => {
      const [run] = await db()
        .insert(scriptRuns)
        .values({ script: 'rebuild-console', version: 1, args: {}, dryRun: true, dangerous: true, target: crypto.randomUUID(), requestedBy: w.agentA, status: 'awaiting_approval' })
        .returning({ id: scriptRuns.id });
      return { url: `/api/v1/operations/script-runs/${run!.id}/approve`, probe: async () => (await db().select({ status: scriptRuns.status, by: scriptRuns.approvedBy }).from(scriptRuns).where(eq(scriptRuns.id, run!.id)))[0] };
    },
  },
  {
    route: 'POST /api/v1/operations/locks/:pid/release',
    // No such backend (PostgreSQL 404) or no sessions to end (PGlite 409); a real release is in operations.test.ts.
    cells: { super: [404, 409], own: [403] },
    target: async () => ({ url: '/api/v1/operations/locks/999999/release' }),
  },
];

/**
 * Audit rows since a given row id: `changes` only those a handler wrote with the change (no status), `all`
 * also the safety net's rows (a refusal, or a sandbox request).
 */
async function auditSince(lastId: number) {
  const rows = await db().select({ status: systemLogs.status }).from(systemLogs).where(gt(systemLogs.id, lastId));
  return { all: rows.length, changes: rows.filter((r) => r.status === null).length };
}
async function lastLogId() {
  const [{ id }] = await db().select({ id: sql<number>`coalesce(max(${systemLogs.id}), 0)::int` }).from(systemLogs);
  return Number(id);
}

async function call(who: Who, method: string, target: Target) {
  return t.call(method, target.url, { token: who === 'super' ? tokens.super : tokens.agent, body: target.body, headers: target.headers });
}

beforeAll(async () => {
  t = await createTestApp({ sandboxRoutes: true });
  const [root] = await db().select({ id: admins.id, roleId: admins.roleId }).from(admins).where(eq(admins.account, 'admin'));
  const [adminRole] = await db().select({ id: roles.id }).from(roles).where(eq(roles.name, 'Administrator'));
  const branchRole = await ownedRole('Branch', BRANCH_KEYS, null);
  const agentA = await makeAdmin(t, 'agent_a', branchRole, root.id, { shareRatio: '0.3000' });
  const agentB = await makeAdmin(t, 'agent_b', branchRole, root.id, { shareRatio: '0.3000' });
  const roleA = await ownedRole('A team', SUB_KEYS, agentA);
  const roleB = await ownedRole('B team', SUB_KEYS, agentB);
  const a1 = await makeAdmin(t, 'agent_a1', roleA, agentA, { shareRatio: '0.1000' });
  const b1 = await makeAdmin(t, 'agent_b1', roleB, agentB, { shareRatio: '0.1000' });
  w = { root: root.id, branchRole, superRole: root.roleId, adminRole: adminRole.id, roleA, roleB, agentA, agentB, a1, b1 };
  tokens = { super: await t.login('admin', ADMIN_PASSWORD), agent: await t.login('agent_a') };
  const [bt] = await db()
    .insert(jackpotBetTypes)
    .values({ type: 'Matrix 13', tiers: [{ hits: 13, proportion_bps: 6000 }], poolRateBps: 5000, betAmount: 100_00, guessNumber: 20, maxDoubles: 5, maxTriples: 0 })
    .returning();
  jackpotBetType = bt.id;
  await db().insert(feedEvents).values(
    JACKPOT_EVENTS.map((eventId, i) => ({
      eventId, sportId: 1, leagueId: 'sr:tournament:om', leagueName: 'Matrix League', homeTeam: `Home ${i}`, awayTeam: `Away ${i}`,
      startTime: new Date(Date.now() + 7_200_000 + i * 60_000), eventStatus: 1, updatedTs: Date.now(),
    })),
  );
});
afterAll(() => t?.close());

describe('ownership matrix', () => {
  it('answers every mutating route x identity as the ownership rules say, with the effect (or none) in the database', async () => {
    const failures: string[] = [];
    let cells = 0;
    for (const c of CASES) {
      const method = c.route.split(' ')[0];
      for (const who of WHO) {
        const want = c.cells[who];
        if (want === undefined) continue;
        cells += 1;
        const target = await c.target(who);
        const before = target.probe ? await target.probe() : undefined;
        const logId = await lastLogId();
        const res = await call(who, method, target);
        const after = target.probe ? await target.probe() : undefined;
        const audited = await auditSince(logId);
        const label = `${who.padEnd(7)} ${c.route}`;
        if (typeof want === 'number') {
          if (res.status !== want) failures.push(`${label} → ${res.status} (want ${want}) ${JSON.stringify(res.body)?.slice(0, 160)}`);
          else if (target.probe && JSON.stringify(before) === JSON.stringify(after)) failures.push(`${label}: allowed but nothing changed`);
          else if (audited.all === 0) failures.push(`${label}: allowed but no audit row`);
        } else {
          if (!want.includes(res.status)) failures.push(`${label} → ${res.status} (want ${want.join('/')}) ${JSON.stringify(res.body)?.slice(0, 160)}`);
          if (target.probe && JSON.stringify(before) !== JSON.stringify(after)) failures.push(`${label}: refused but the data changed`);
          if (audited.changes !== 0) failures.push(`${label}: refused but ${audited.changes} audit row(s) of a change`);
        }
      }
    }
    expect(failures).toEqual([]);
    // The money cells (reconciliations included) leave the ledger whole.
    expect(await checkInvariants(db())).toEqual([]);
    expect(await withdrawalsClearingProblems(t)).toEqual([]);
    expect(cells).toBe(CASES.reduce((s, c) => s + Object.keys(c.cells).length, 0));
    console.info(`ownership matrix: ${CASES.length} route variants, ${cells} calls of 5 identities`);
  });
});

describe('findings of the security review', () => {
  it('1: an agent cannot widen their scope by setting serves_superior_branch on their own role, so another branch stays closed', async () => {
    const [role] = await db().select().from(roles).where(eq(roles.id, w.branchRole));
    const r = await t.call('PUT', `/api/v1/system/roles/${w.branchRole}`, { token: tokens.agent, body: { name: role.name, remarks: role.remarks, serves_superior_branch: true } });
    expect(r.status).toBe(403);
    const [after] = await db().select().from(roles).where(eq(roles.id, w.branchRole));
    expect(after.servesSuperiorBranch).toBe(false);
    const other = await freshBettor('B');
    const bal = await t.call('POST', `/api/v1/money/bettors/${other}/balance`, { token: tokens.agent, body: { amount: 1_000_00, remark: 'probe' } });
    expect(bal.status).toBe(403);
    const { billRows } = await bettorProbe(other)();
    expect(billRows).toBe(1); // only the funding recharge
    expect((await t.call('GET', `/api/v1/money/bettors/${other}`, { token: tokens.agent })).status).toBe(403);
  });

  it('2: a role:edit holder cannot edit the super administrator role nor a seeded role', async () => {
    for (const id of [w.superRole, w.adminRole]) {
      const [before] = await db().select().from(roles).where(eq(roles.id, id));
      const r = await t.call('PUT', `/api/v1/system/roles/${id}`, { token: tokens.agent, body: { name: uniq('taken_'), remarks: 'mine' } });
      expect(r.status).toBe(403);
      const flip = await t.call('PUT', `/api/v1/system/roles/${id}`, { token: tokens.agent, body: { name: before.name, remarks: before.remarks, serves_superior_branch: !before.servesSuperiorBranch } });
      expect(flip.status).toBe(403);
      const [after] = await db().select().from(roles).where(eq(roles.id, id));
      expect(after).toEqual(before);
      expect((await t.call('DELETE', `/api/v1/system/roles/${id}`, { token: tokens.agent })).status).toBe(403);
    }
    // The role list shows only what the agent owns or holds.
    const list = await t.call('GET', '/api/v1/system/roles?page_size=200', { token: tokens.agent });
    const names = list.body.items.map((r: { name: string }) => r.name);
    expect(names).toContain('A team');
    expect(names).toContain('Branch');
    expect(names).not.toContain('B team');
    expect(names).not.toContain('Administrator');
    expect(list.body.items.some((r: { is_super: boolean }) => r.is_super)).toBe(false);
    expect((await t.call('GET', `/api/v1/system/roles/${w.roleB}/permissions`, { token: tokens.agent })).status).toBe(403);
  });

  it('3: role permissions cannot be changed on a role held by an admin outside the editor\'s subtree', async () => {
    // A role agent A's subtree created, later given by the super admin to an admin of branch B.
    const role = await freshRole('A');
    await freshAdmin('A', { roleId: role });
    await freshAdmin('B', { roleId: role });
    const before = await roleProbe(role)();
    const r = await t.call('PUT', `/api/v1/system/roles/${role}/permissions`, { token: tokens.agent, body: { keys: ['log'] } });
    expect(r.status).toBe(403);
    expect(await roleProbe(role)()).toEqual(before);
    // The role of branch B itself.
    const beforeB = await roleProbe(w.roleB)();
    expect((await t.call('PUT', `/api/v1/system/roles/${w.roleB}/permissions`, { token: tokens.agent, body: { keys: ['log'] } })).status).toBe(403);
    expect(await roleProbe(w.roleB)()).toEqual(beforeB);
  });

  it('4: on their own record an admin changes name and phone only; share ratio and expiry are a superior\'s', async () => {
    const expiry = new Date(Date.now() + 30 * 86_400_000);
    await db().update(admins).set({ memberExpiry: expiry }).where(eq(admins.id, w.agentA));
    const before = await adminProbe(w.agentA)();
    expect((await t.call('PUT', `/api/v1/system/administrators/${w.agentA}`, { token: tokens.agent, body: { share_ratio: 0.95 } })).status).toBe(403);
    expect((await t.call('PUT', `/api/v1/system/administrators/${w.agentA}`, { token: tokens.agent, body: { member_expiry: null } })).status).toBe(403);
    expect((await t.call('PUT', `/api/v1/system/administrators/${w.agentA}`, { token: tokens.agent, body: { invitation_code: 'MINE1234' } })).status).toBe(403);
    const after = await adminProbe(w.agentA)();
    expect(after.shareRatio).toBe(before.shareRatio);
    expect(after.memberExpiry?.getTime()).toBe(expiry.getTime());
    expect(after.invitationCode).toBe(before.invitationCode);
    // The console's edit form sends every field (dates in whole seconds): unchanged values pass, the name changes.
    const ok = await t.call('PUT', `/api/v1/system/administrators/${w.agentA}`, {
      token: tokens.agent,
      body: { name: 'Agent A', phone: '255754000111', role_id: w.branchRole, superior_id: w.root, share_ratio: 0.3, member_expiry: expiry.toISOString().replace(/\.\d+Z$/, 'Z'), invitation_code: null },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.name).toBe('Agent A');
    expect(ok.body.share_ratio).toBe('0.3000');
    // A superior cannot give a subordinate more than their own share ratio.
    const above = await t.call('PUT', `/api/v1/system/administrators/${w.a1}`, { token: tokens.agent, body: { share_ratio: 0.31 } });
    expect(above.status).toBe(403);
    expect((await adminProbe(w.a1)()).shareRatio).toBe('0.1000');
    const created = await t.call('POST', '/api/v1/system/administrators', { token: tokens.agent, body: { account: uniq('greedy_'), role_id: w.roleA, share_ratio: 0.5 } });
    expect(created.status).toBe(403);
    expect((await t.call('PUT', `/api/v1/system/administrators/${w.a1}`, { token: tokens.agent, body: { share_ratio: 0.3 } })).status).toBe(200);
    // Nobody assigns themselves a role, the super admin included.
    const [root] = await db().select().from(admins).where(eq(admins.id, w.root));
    expect((await t.call('PUT', `/api/v1/system/administrators/${w.root}`, { token: tokens.super, body: { role_id: w.adminRole } })).status).toBe(422);
    expect((await adminProbe(w.root)()).roleId).toBe(root.roleId);
  });

  it('5: the sandbox routes refuse a bettor of another branch and create nothing', async () => {
    const other = await freshBettor('B');
    for (const path of ['withdrawals', 'recharges']) {
      const r = await t.call('POST', `/api/v1/sandbox/${path}`, { token: tokens.agent, body: { bettor_id: other, pay_type: PAY_TYPE.tigo, amount: 2_000_00 } });
      expect(r.status).toBe(403);
    }
    expect(await db().select().from(withdrawals).where(eq(withdrawals.bettorId, other))).toHaveLength(0);
    expect(await db().select().from(recharges).where(eq(recharges.bettorId, other))).toHaveLength(0);
    expect((await bettorProbe(other)()).b.cashBalance).toBe(50_000_00);
  });
});
