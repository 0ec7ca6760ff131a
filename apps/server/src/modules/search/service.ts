import { and, desc, eq, exists, inArray, or, sql, type SQL } from 'drizzle-orm';
import { formatTzPhoneLocal } from '@dau/domain';
import type { AuthContext } from '../../platform/access.js';
import type { Db } from '../../platform/db.js';
import { scopeCondition, scopeOf, type Scope } from '../../platform/listing.js';
import { subtreeCondition } from '../../platform/ownership.js';
import { admins } from '../../platform/schema.js';
import { bettors } from '../money/index.js';
import { orders } from '../betting/index.js';
import { recharges, withdrawals } from '../payments/index.js';
import { jackpotTickets } from '../jackpot/index.js';
import { tronSweeps, tronTransfers, tronWallets } from '../tron/index.js';
import { classify, PAY_TYPES, prefixPattern, type Classified } from './classify.js';

/**
 * Search everywhere (issue 29): one query over bettors, orders, withdrawals, recharges, jackpot tickets,
 * TRON wallets, transfers and sweeps, and admins. The query is classified first (./classify.ts), so each
 * kind runs only the indexed lookups its shape can match; a kind runs only for an admin who holds a page
 * that shows it, with the branch scope its lists apply (`scopeOf`, the agent column), and each result
 * names the page and query that open it in the console.
 */
import type { SearchGroup, SearchItem, SearchKind } from '@dau/contract';
export { SEARCH_KINDS, type SearchGroup, type SearchItem, type SearchKind } from '@dau/contract';

/** Results per kind. */
export const PER_KIND = 5;
/** The recent lists of payments reach back 30 days (payments/lists.ts); older rows open in the archive. */
const RECENT = sql`now() - interval '30 days'`;

const iso = (d: Date | string | null | undefined) => (d == null ? null : new Date(d).toISOString());
const local = (phone: string | null | undefined) => (phone ? formatTzPhoneLocal(phone) : '');
const words = (...xs: (string | number | null | undefined)[]) => xs.filter((x) => x !== null && x !== undefined && x !== '').join(' · ');
/** The first page the admin holds among those that show a kind. */
const firstPage = (auth: AuthContext, pages: readonly string[]) => pages.find((p) => auth.can(p));
/** Rows of several lookups, each at most once, newest (highest id) first, at most PER_KIND. */
function merge<T extends { id: number }>(...lists: T[][]): T[] {
  const seen = new Map<number, T>();
  for (const l of lists) for (const r of l) if (!seen.has(r.id)) seen.set(r.id, r);
  return [...seen.values()].slice(0, PER_KIND);
}
const anyOf = (conds: (SQL | undefined)[]) => {
  const xs = conds.filter((c): c is SQL => !!c);
  return xs.length ? or(...xs) : undefined;
};

export async function searchEverywhere(db: Db, auth: AuthContext, query: string): Promise<SearchGroup[]> {
  const c = classify(query);
  let scoped: Promise<Scope> | undefined;
  const scope = () => (scoped ??= scopeOf(db, auth));
  const kinds: [SearchKind, () => Promise<SearchItem[]>][] = [
    ['bettor', () => bettorsFound(db, auth, c, scope)],
    ['order', () => ordersFound(db, auth, c, scope)],
    ['withdrawal', () => paymentsFound(db, auth, c, scope, 'withdrawal')],
    ['recharge', () => paymentsFound(db, auth, c, scope, 'recharge')],
    ['jackpot_ticket', () => ticketsFound(db, auth, c, scope)],
    ['tron_wallet', () => walletsFound(db, auth, c, scope)],
    ['tron_transfer', () => transfersFound(db, auth, c, scope)],
    ['tron_sweep', () => sweepsFound(db, auth, c, scope)],
    ['admin', () => adminsFound(db, auth, c)],
  ];
  const found = await Promise.all(kinds.map(([, run]) => run()));
  return kinds.map(([kind], i) => ({ kind, items: found[i] }));
}

type ScopeOf = () => Promise<Scope>;

// ------------------------------------------------------------------------------------------------ bettors

const BETTOR_PAGES = ['user', 'user_list', 'cs_user'] as const;

async function bettorsFound(db: Db, auth: AuthContext, c: Classified, scope: ScopeOf): Promise<SearchItem[]> {
  const page = firstPage(auth, BETTOR_PAGES);
  if (!page) return [];
  const exact = anyOf([
    c.phone ? eq(bettors.phone, c.phone) : undefined,
    c.id && c.id <= 2_147_483_647 ? eq(bettors.id, c.id) : undefined,
    c.invitationCode ? eq(bettors.invitationCode, c.invitationCode) : undefined,
  ]);
  if (!exact && !c.prefix) return [];
  const s = scopeCondition(await scope(), bettors.agentId);
  const cols = { id: bettors.id, phone: bettors.phone, name: bettors.name, balance: bettors.cashBalance, createdAt: bettors.createdAt, agent: admins.account };
  const base = () => db.select(cols).from(bettors).leftJoin(admins, eq(admins.id, bettors.agentId));
  // The name: left-anchored on lower(name) in the C collation (migration 0041), in that order. The first
  // five are chosen from the index alone (bettors_name_prefix, or per agent of a branch
  // bettors_agent_name_prefix, which holds the name and id), then read.
  const name = sql`lower(${bettors.name}) collate "C"`;
  const named = () => db.select({ id: bettors.id }).from(bettors).where(and(sql`${name} like ${prefixPattern(c.prefix!)}`, s)).orderBy(name).limit(PER_KIND);
  const [a, b] = await Promise.all([
    exact ? base().where(and(exact, s)).orderBy(desc(bettors.id)).limit(PER_KIND) : [],
    c.prefix ? base().where(inArray(bettors.id, named())).orderBy(name) : [],
  ]);
  return merge(a, b).map((r): SearchItem => ({
    kind: 'bettor',
    id: r.id,
    title: local(r.phone),
    subtitle: words(r.name, `ID ${r.id}`, r.agent),
    amount: Number(r.balance),
    time: iso(r.createdAt),
    page,
    params: page === 'cs_user' ? { phone: r.phone, open: String(r.id) } : { id: String(r.id), open: String(r.id) },
  }));
}

// ------------------------------------------------------------------------------------------------- orders

async function ordersFound(db: Db, auth: AuthContext, c: Classified, scope: ScopeOf): Promise<SearchItem[]> {
  const page = firstPage(auth, ['order_detailed', 'cs_order_detailed']);
  if (!page) return [];
  const exact = anyOf([
    c.id ? eq(orders.id, c.id) : undefined,
    c.serial && c.serialOf?.includes('order_serial') ? eq(orders.serialNumber, c.serial) : undefined,
    c.serial && c.serialOf?.includes('order_no') ? eq(orders.orderNo, c.serial) : undefined,
  ]);
  if (!exact) return [];
  const rows = await db
    .select({ id: orders.id, serial: orders.serialNumber, orderNo: orders.orderNo, stake: orders.stake, createdAt: orders.createdAt, phone: bettors.phone })
    .from(orders)
    .leftJoin(bettors, eq(bettors.id, orders.bettorId))
    .where(and(exact, scopeCondition(await scope(), orders.agentId)))
    .orderBy(desc(orders.id))
    .limit(PER_KIND);
  return rows.map((r) => ({
    kind: 'order',
    id: r.id,
    title: r.serial,
    subtitle: words(r.orderNo, local(r.phone)),
    amount: Number(r.stake),
    time: iso(r.createdAt),
    page,
    params: { id: String(r.id) },
  }));
}

// --------------------------------------------------------------------------------- withdrawals, recharges

const PAYMENT_PAGES = {
  withdrawal: { recent: ['withdraw_list', 'cs_withdraw'], archive: ['withdrawal_archive'] },
  recharge: { recent: ['recharge_list', 'cs_recharge'], archive: ['recharge_archive'] },
} as const;

async function paymentsFound(db: Db, auth: AuthContext, c: Classified, scope: ScopeOf, kind: 'withdrawal' | 'recharge'): Promise<SearchItem[]> {
  const pages = PAYMENT_PAGES[kind];
  const recentPage = firstPage(auth, pages.recent);
  const archivePage = firstPage(auth, pages.archive);
  if (!recentPage && !archivePage) return [];
  const t = kind === 'withdrawal' ? withdrawals : recharges;
  const exact = anyOf([
    c.serial && c.serialOf?.includes(kind) ? eq(t.serialNumber, c.serial) : undefined,
    // The operator's reference is unique per pay type (<kind>s_carrier on (pay_type, carrier_order_number)):
    // one probe of that index per pay type.
    c.reference ? and(inArray(t.payType, PAY_TYPES), eq(t.carrierOrderNumber, c.reference)) : undefined,
  ]);
  if (!exact) return [];
  const rows = await db
    .select({
      id: t.id, serial: t.serialNumber, phone: t.phone, reference: t.carrierOrderNumber, amount: t.amount, createdAt: t.createdAt,
      recent: sql<boolean>`${t.createdAt} >= ${RECENT}`,
    })
    .from(t)
    .where(and(exact, scopeCondition(await scope(), t.agentId)))
    .orderBy(desc(t.id))
    .limit(PER_KIND);
  return rows.flatMap((r): SearchItem[] => {
    const page = r.recent ? recentPage : archivePage;
    if (!page) return [];
    return [{
      kind,
      id: r.id,
      title: r.serial,
      subtitle: words(local(r.phone), r.reference),
      amount: Number(r.amount),
      time: iso(r.createdAt),
      page,
      params: { serial_number: r.serial, open: String(r.id) },
    }];
  });
}

// ------------------------------------------------------------------------------------------ jackpot tickets

async function ticketsFound(db: Db, auth: AuthContext, c: Classified, scope: ScopeOf): Promise<SearchItem[]> {
  const page = firstPage(auth, ['jackpot_bet_list', 'cs_jackpot_bet_list']);
  if (!page || !c.serial || !c.serialOf?.includes('jackpot_ticket')) return [];
  const rows = await db
    .select({ id: jackpotTickets.id, serial: jackpotTickets.serialNumber, stake: jackpotTickets.stake, createdAt: jackpotTickets.createdAt, phone: bettors.phone })
    .from(jackpotTickets)
    .leftJoin(bettors, eq(bettors.id, jackpotTickets.bettorId))
    .where(and(eq(jackpotTickets.serialNumber, c.serial), scopeCondition(await scope(), jackpotTickets.agentId)))
    .limit(PER_KIND);
  return rows.map((r) => ({
    kind: 'jackpot_ticket',
    id: r.id,
    title: r.serial,
    subtitle: local(r.phone),
    amount: Number(r.stake),
    time: iso(r.createdAt),
    page,
    params: { serial_number: r.serial, open: String(r.id) },
  }));
}

// ------------------------------------------------------------------------------------------------- TRON

/** USDT on chain counts in millionths. */
const usdt = (units: number) => `${(Number(units) / 1e6).toLocaleString('en-US', { maximumFractionDigits: 6 })} USDT`;

async function walletsFound(db: Db, auth: AuthContext, c: Classified, scope: ScopeOf): Promise<SearchItem[]> {
  if (!auth.can('tron') || !c.tronAddress) return [];
  const rows = await db
    .select({ id: tronWallets.id, address: tronWallets.addressBase58, role: tronWallets.role, createdAt: tronWallets.createdAt, phone: bettors.phone })
    .from(tronWallets)
    .leftJoin(bettors, eq(bettors.id, tronWallets.bettorId))
    .where(and(eq(tronWallets.addressBase58, c.tronAddress), scopeCondition(await scope(), tronWallets.agentId)))
    .limit(PER_KIND);
  return rows.map((r) => ({
    kind: 'tron_wallet',
    id: r.id,
    title: r.address,
    subtitle: local(r.phone),
    amount: null,
    time: iso(r.createdAt),
    page: 'tron',
    params: { address: r.address, open: String(r.id) },
  }));
}

async function transfersFound(db: Db, auth: AuthContext, c: Classified, scope: ScopeOf): Promise<SearchItem[]> {
  if (!auth.can('usdt_transaction_record') || !(c.txHash || c.tronAddress)) return [];
  const s = scopeCondition(await scope(), tronTransfers.agentId);
  const cols = {
    id: tronTransfers.id, tx: tronTransfers.txHash, from: tronTransfers.fromAddress, to: tronTransfers.toAddress, amount: tronTransfers.amount,
    createdAt: tronTransfers.createdAt,
  };
  // An address: its newest transfers each way, each on its own index (tron_transfers_from / _to, 0041).
  const by = (cond: SQL) => db.select(cols).from(tronTransfers).where(and(cond, s)).orderBy(desc(tronTransfers.id)).limit(PER_KIND);
  const lists = await Promise.all([
    c.txHash ? by(eq(tronTransfers.txHash, c.txHash)) : [],
    c.tronAddress ? by(eq(tronTransfers.toAddress, c.tronAddress)) : [],
    c.tronAddress ? by(eq(tronTransfers.fromAddress, c.tronAddress)) : [],
  ]);
  const rows = lists.flat().sort((a, b) => b.id - a.id);
  return merge(rows).map((r) => ({
    kind: 'tron_transfer',
    id: r.id,
    title: r.tx,
    subtitle: words(`${r.from} → ${r.to}`, usdt(r.amount)),
    amount: null,
    time: iso(r.createdAt),
    page: 'usdt_transaction_record',
    params: { tx_hash: r.tx, open: String(r.id) },
  }));
}

async function sweepsFound(db: Db, auth: AuthContext, c: Classified, scope: ScopeOf): Promise<SearchItem[]> {
  if (!auth.can('tron_transaction_summary') || !(c.txHash || c.tronAddress)) return [];
  const sc = await scope();
  // As the sweeps list scopes them: the withdrawal's agent, or a wallet's at either end.
  const one = { one: sql`1` };
  const s = sc.all
    ? undefined
    : or(
        exists(db.select(one).from(withdrawals).where(and(eq(withdrawals.id, tronSweeps.withdrawalId), scopeCondition(sc, withdrawals.agentId)))),
        exists(
          db.select(one).from(tronWallets)
            .where(and(or(eq(tronWallets.addressBase58, tronSweeps.fromAddress), eq(tronWallets.addressBase58, tronSweeps.toAddress)), scopeCondition(sc, tronWallets.agentId))),
        ),
      );
  const cols = { id: tronSweeps.id, number: tronSweeps.number, kind: tronSweeps.kind, tx: tronSweeps.txHash, to: tronSweeps.toAddress, amount: tronSweeps.amount, asset: tronSweeps.asset, createdAt: tronSweeps.createdAt };
  const by = (cond: SQL) => db.select(cols).from(tronSweeps).where(and(cond, s)).orderBy(desc(tronSweeps.id)).limit(PER_KIND);
  const lists = await Promise.all([
    c.txHash ? by(eq(tronSweeps.txHash, c.txHash)) : [],
    c.tronAddress ? by(eq(tronSweeps.toAddress, c.tronAddress)) : [],
    c.tronAddress ? by(eq(tronSweeps.fromAddress, c.tronAddress)) : [],
  ]);
  const rows = lists.flat().sort((a, b) => b.id - a.id);
  return merge(rows).map((r): SearchItem => ({
    kind: 'tron_sweep',
    id: r.id,
    title: r.number,
    subtitle: words(r.kind, r.asset === 'USDT' ? usdt(r.amount) : `${Number(r.amount) / 1e6} TRX`, r.tx),
    amount: null,
    time: iso(r.createdAt),
    page: 'tron_transaction_summary',
    params: r.tx ? { tx_hash: r.tx, open: String(r.id) } : { number: r.number, open: String(r.id) },
  }));
}

// ------------------------------------------------------------------------------------------------- admins

async function adminsFound(db: Db, auth: AuthContext, c: Classified): Promise<SearchItem[]> {
  if (!auth.can('administrators')) return [];
  // Admins' phones were stored as typed (issue 29 normalises them): the forms people type.
  const phones = c.phone ? [c.phone, `+${c.phone}`, `0${c.phone.slice(3)}`] : [];
  const exact = anyOf([
    phones.length ? inArray(admins.phone, phones) : undefined,
    c.invitationCode ? eq(admins.invitationCode, c.invitationCode) : undefined,
    c.id && c.id <= 2_147_483_647 ? eq(admins.id, c.id) : undefined,
  ]);
  if (!exact && !c.prefix) return [];
  const account = sql`lower(${admins.account}) collate "C"`;
  const name = sql`lower(${admins.name}) collate "C"`;
  const visible = subtreeCondition(auth);
  const cols = { id: admins.id, account: admins.account, name: admins.name, phone: admins.phone, createdAt: admins.registerTime };
  const pattern = c.prefix ? prefixPattern(c.prefix) : '';
  const [a, b, n] = await Promise.all([
    exact ? db.select(cols).from(admins).where(and(exact, visible)).orderBy(desc(admins.id)).limit(PER_KIND) : [],
    c.prefix ? db.select(cols).from(admins).where(and(sql`${account} like ${pattern}`, visible)).orderBy(account).limit(PER_KIND) : [],
    c.prefix ? db.select(cols).from(admins).where(and(sql`${name} like ${pattern}`, visible)).orderBy(name).limit(PER_KIND) : [],
  ]);
  return merge(a, b, n).map((r) => ({
    kind: 'admin',
    id: r.id,
    title: r.account,
    subtitle: words(r.name, r.phone),
    amount: null,
    time: iso(r.createdAt),
    page: 'administrators',
    params: { account: r.account, open: String(r.id) },
  }));
}
