import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contract from '@dau/contract';
import { readableFields, resourceRowId, type FieldDef, type ResourceDef } from '@dau/contract';
import { buildApp, type DauApp } from '../src/app.js';
import { listSpecs } from '../src/platform/listing.js';
import { freshDatabase } from './helpers.js';

/**
 * One source of truth: every resource declaration of the contract (console and server build their screens
 * from them) is tied to the server's list route. Either the resource layer (src/platform/resource.ts)
 * builds the route from the declaration, which the served API document says (the route answers the
 * component the layer names after the declaration, `x-resource: <name>`), or the route is written by hand
 * (zod filters, where-clauses and row mappers of the listing layer, src/platform/listing.ts) and this test
 * ties it: each declared filter is a parameter of the route's query, of a type that takes what the console
 * sends, and each declared field is a property of the route's answer row, of a type the console shows.
 * A new declaration is one or the other: a hand-written one is listed in HAND_WRITTEN, with why.
 */

/** The declarations whose list the server writes by hand, and why the resource layer (one table, plain filters, synchronous CSV) does not build it. */
const HAND_WRITTEN: Readonly<Record<string, string>> = {
  // Betting orders (betting/routes.ts): bettors' money rows.
  order_list: "orders joined to their bettor, in the admin's branch; a filter first; background export",
  cs_order: "orders joined to their bettor, in the served branch; one bettor's or one order",
  order_archive: 'orders older than 30 days, one bettor or order at a time; background export',
  cs_order_archive: 'orders older than 30 days, in the served branch; one bettor or order at a time',
  bet_remind: 'open orders still without a result hours after their last match (a computed condition); background export',
  // Jackpot (jackpot/routes.ts, held-prizes.ts).
  jackpot_identifier: 'issues joined to their bet type, with a count of their matches; background export',
  jackpot_bet_list: "tickets joined to bettor, issue and placing admin, in the admin's branch; background export",
  cs_jackpot_bet_list: 'tickets joined to bettor, issue and placing admin, in the served branch',
  super_list: "shared slips joined to ticket, issue and bettor, in the admin's branch; background export",
  jackpot_held_prize: 'tickets with a prize held above the cap, with sums of what was paid and is pending (aggregates); background export',
  // Bettors and money (money/bettors-routes.ts, bills-routes.ts, payments/lists.ts).
  user: "bettors joined to their agent and inviter, in the admin's branch (money rows with scope); background export",
  user_list: "bettors joined to their agent and inviter, in the admin's branch; background export",
  cs_user: 'one bettor by phone, in the served branch; background export',
  online_statistical: "bettors online now, in the admin's branch; background export",
  activity_qualification: "qualifications joined to their bettor, in the admin's branch; background export",
  cs_activity_qualification: "one bettor's qualifications by phone, in the served branch; background export",
  bill: "cash bills of the last 30 days joined to bettor and admin, in the admin's branch (money rows with scope); background export",
  bill_credit: "credit bills of the last 30 days joined to bettor and admin, in the admin's branch; background export",
  cs_bill: "one bettor's bills, in the served branch; background export",
  admin_bill: "balance changes made by administrators, in the admin's branch; background export",
  bill_archive: 'bills older than 30 days, one bettor or serial at a time; background export',
  bill_credit_archive: 'credit bills older than 30 days, one bettor or serial at a time; background export',
  recharge_list: "recharges joined to bettor and agent, in the admin's branch; computed filters (stuck at the operator, awaiting reconciliation); background export",
  cs_recharge: "one bettor's recharges, in the served branch; background export",
  recharge_archive: 'recharges older than 30 days, one bettor or reference at a time; background export',
  withdraw_list: "withdrawals joined to bettor, agent and approvers, in the admin's branch; computed filters (large, stuck, reconcile); background export",
  cs_withdraw: "one bettor's withdrawals, in the served branch; background export",
  withdrawal_archive: 'withdrawals older than 30 days, one bettor or reference at a time; background export',
  airtel_transfer: 'recharges and withdrawals through Airtel in one list (a union of two tables); background export',
  async_operations: "export jobs: the caller's own (everyone's for the super admin), with the download address of a finished file",
  // Racing (racing/routes.ts).
  racing_race: "the provider's races with runners and finishing order (JSON columns, a computed winner); background export",
  racing_order: "racing bets joined to bettor and race, in the admin's branch; background export",
  racing_coin: "coin conversions joined to their bettor, in the admin's branch; background export",
  // TRON (tron/wallets.ts, tron/lists.ts): wallets of the branch's bettors and the house's; chain rows.
  tron: "wallets joined to their bettor (the branch's deposit wallets) and the house's; never key material",
  tron_transaction_summary: 'sweeps and USDT withdrawals joined to their withdrawal and bettor, branch scope; background export',
  usdt_transaction_record: 'chain transfers joined to the credited recharge and bettor, branch scope; background export',
  // Casino reports (casino/reports.ts): aggregates over rounds per game or per bettor, branch scope.
  casino_game: 'rounds, players, turnover, payouts, GGR and RTP per game over a period (aggregates); background export',
  casino_user: "the same per bettor of the admin's branch (aggregates joined to the bettor); background export",
  // The auditors' reports (reports/audit): the whole book's only.
  significant_events: 'a union over the orders history, settings history, sign-ins, bills, large wins and withdrawals (one log); background export',
  resettlement_report: "the orders' changes grouped per match and market with the totals of the filtered changes (aggregates)",
  resettlement_changes: "the orders' changes joined to their line, bettor and admin, money from the history's before and after; background export",
  // Push and Telegram (push/index.ts, telegram/index.ts): devices and bindings joined to their admin or bettor.
  push_device: 'devices joined to their admin or bettor, with the last push they got; branch scope for bettors',
  precision_push_device: 'the same devices, as the precision push chooses them',
  telegram_bot_binding: "bindings joined to their admin or bettor; the bot's chat ids",
  racing_settings: 'racing on/off and the coin rate: one row created on first read (not seeded), which the singleton of the resource layer needs; a candidate for it',
  tron_settings: 'the TRON settings: USDT amounts answered and taken as decimals (stored as 6-decimal units), which the resource layer does not convert',
  // Feed, messaging, casino, duties, SMS, visitors.
  match_list: "the feed's matches, live and archived (a view over two tables), with the operator's flags; filtered by start day; background export",
  message_board: "bettors' messages joined to bettor and replier, in the admin's branch; background export",
  message_list: 'in-app messages sent by my branch, with their progress and reads (aggregates)',
  casino_large_win: "large wins joined to round, game, bettor and reviewer, in the admin's branch; background export",
  casino_order: "casino rounds joined to provider, game and bettor, in the admin's branch; background export",
  pending_change: 'pending changes of settings (the duties), secrets masked',
  setting_history: 'changes of whole-product settings with who approved them, secrets masked',
  sms_send: 'SMS sends of my branch with their delivery progress',
  visitor: 'visits of the bettor-facing site (90 days kept); background export',
  // The daily close (reports/close/lists.ts, issue 30).
  daily_close: "each closed day's latest run with the runs counted, the day before's and the week before's figures and the per-product figures from its JSON; whole book only; background export",
};

/**
 * Declared filters and fields the hand-written route does not have today (`<resource> filter|field <key>`),
 * each with where it is wrong. Only removals: the test fails when an entry is no longer a mismatch.
 */
const KNOWN_MISMATCHES: Readonly<Record<string, string>> = {
  // None left: setting_history's created_at range and the jackpot tickets' `picks` (json) were fixed when
  // this test found them. A mismatch that cannot be fixed at once is named here with why.
};

type Schema = Record<string, any>;

const isDeclaration = (v: unknown): v is ResourceDef => {
  const d = v as Partial<ResourceDef> | null;
  return !!d && typeof d === 'object' && typeof d.name === 'string' && typeof d.api === 'string' && Array.isArray(d.fields) && (d.kind === 'list' || d.kind === 'singleton');
};

/** Every resource declaration the contract exports, alone or in a list, once. */
function contractDeclarations(): ResourceDef[] {
  const found = new Set<ResourceDef>();
  for (const value of Object.values(contract)) for (const v of Array.isArray(value) ? value : [value]) if (isDeclaration(v)) found.add(v);
  return [...found].sort((a, b) => a.name.localeCompare(b.name));
}

const declarations = contractDeclarations();
let built: DauApp;
let disposeDb: () => Promise<void>;
let doc: Schema;

beforeAll(async () => {
  // The migrated template (no seed): only the routes and their document are read.
  const database = await freshDatabase();
  disposeDb = database.dispose;
  built = await buildApp({ database });
  await built.app.ready();
  doc = built.app.swagger() as unknown as Schema;
}, 180_000);
afterAll(async () => {
  await built?.app.close();
  await disposeDb?.();
});

const REF = '#/components/schemas/';
const resolve = (s: Schema | undefined): Schema | undefined => (typeof s?.$ref === 'string' ? resolve(doc.components.schemas[s.$ref.slice(REF.length)]) : s);

/** The JSON types a schema allows (`any` when it says none), through references and alternatives. */
function typesOf(s: Schema | undefined): Set<string> {
  const r = resolve(s);
  const alternatives = r?.anyOf ?? r?.oneOf;
  if (alternatives) return new Set(alternatives.flatMap((a: Schema) => [...typesOf(a)]));
  if (!r?.type) return new Set(['any']);
  return new Set([r.type === 'integer' ? 'number' : r.type]);
}
const enumOf = (s: Schema | undefined): unknown[] | undefined => {
  const r = resolve(s);
  return r?.enum ?? (r?.anyOf ?? r?.oneOf)?.flatMap((a: Schema) => enumOf(a) ?? []);
};

/** Whether a query parameter takes what the console's search form sends for the field (apps/web/src/resources/SearchForm.tsx). */
function takesFilter(f: FieldDef, param: Schema, range: boolean): boolean {
  const t = typesOf(param);
  if (t.has('any')) return true;
  const values = enumOf(param);
  // A date range: ISO date-times. A switch: 'true' or 'false'.
  if (range) return t.has('string') && !values?.length;
  if (f.type === 'switch') return (t.has('string') && !values?.length) || (!!values && ['true', 'false'].every((v) => values.includes(v)));
  // A number or an enumeration id: digits.
  if (f.type === 'number' || f.type === 'money' || f.type === 'enum' || f.type === 'odds') return t.has('number') || (t.has('string') && !values?.length);
  return t.has('string');
}

/** Whether an answer's property has the JSON type the console shows the field as (apps/web/src/resources/FieldValue.tsx). */
function answersField(f: FieldDef, property: Schema): boolean {
  const t = typesOf(property);
  if (t.has('any') || f.type === 'json') return true;
  switch (f.type) {
    case 'number':
    case 'money':
    case 'enum':
      return t.has('number');
    case 'odds':
      // Decimal odds as bettors see them may be text ("2.35").
      return t.has('number') || t.has('string');
    case 'switch':
      return t.has('boolean');
    case 'images':
      return t.has('array');
    default:
      return t.has('string');
  }
}

/** The list route of a declaration: GET /api/v1{api}, its query parameters and its answer row. */
function listRoute(def: ResourceDef) {
  const url = `/api/v1${def.api}`;
  const op: Schema | undefined = doc.paths[url]?.get;
  const answer = resolve(op?.responses?.['200']?.content?.['application/json']?.schema);
  const rowRef = def.kind === 'list' ? answer?.properties?.items?.items : op?.responses?.['200']?.content?.['application/json']?.schema;
  const row = resolve(rowRef);
  const query = new Map<string, Schema>((op?.parameters ?? []).filter((p: Schema) => p.in === 'query').map((p: Schema) => [p.name, p.schema]));
  const properties: Record<string, Schema> = { ...(row?.properties ?? {}), ...Object.assign({}, ...((row?.anyOf ?? row?.oneOf ?? []) as Schema[]).map((a) => resolve(a)?.properties ?? {})) };
  return { where: `GET ${url}`, op, rowRef, query, properties };
}

/** The component the resource layer answers for this declaration, when it builds the route (`x-resource` names the declaration). */
function resourceLayerRow(def: ResourceDef): Schema | undefined {
  const { rowRef } = listRoute(def);
  const id = typeof rowRef?.$ref === 'string' ? rowRef.$ref.slice(REF.length) : undefined;
  const component = id ? doc.components.schemas[id] : undefined;
  return id === resourceRowId(def) && component?.['x-resource'] === def.name ? component : undefined;
}

/** A field shown in the table or the detail view (a filter-only field, `table: false, detail: false` with a search, is not a column). */
const isColumn = (f: FieldDef) => !f.writeOnly && !(f.search && f.table === false && f.detail === false);

/** What a declaration says that its list route does not have, by `<resource> filter|field|… <key>`. */
function mismatches(def: ResourceDef): Map<string, string> {
  const out = new Map<string, string>();
  const { where, op, query, properties } = listRoute(def);
  if (!op) return out.set(`${def.name} route`, `${def.name}: no ${where} (declared api ${def.api})`);
  const access = built.routes.find((r) => r.method === 'GET' && r.url === `/api/v1${def.api}`)?.access;
  if (!access || !('page' in access) || access.page !== def.page) out.set(`${def.name} page`, `${def.name}: ${where} checks ${JSON.stringify(access)}, the declaration's page is ${def.page}`);
  for (const f of def.fields) {
    if (f.search && def.kind === 'list') {
      const range = f.search === 'range';
      for (const key of range ? [`${f.key}_from`, `${f.key}_to`] : [f.key]) {
        const param = query.get(key);
        if (!param) out.set(`${def.name} filter ${key}`, `${def.name}: declared filter ${key} (${f.type}, ${f.search}) is not a query parameter of ${where}`);
        else if (!takesFilter(f, param, range)) out.set(`${def.name} filter ${key}`, `${def.name}: filter ${key} is ${f.type} in the declaration, ${JSON.stringify(resolve(param))} in the query of ${where}`);
      }
    }
    if (isColumn(f)) {
      const property = properties[f.key];
      if (!property) out.set(`${def.name} field ${f.key}`, `${def.name}: declared field ${f.key} (${f.type}) is not in the answer row of ${where}`);
      else if (!answersField(f, property)) out.set(`${def.name} field ${f.key}`, `${def.name}: field ${f.key} is ${f.type} in the declaration, ${JSON.stringify(resolve(property))} in the answer row of ${where}`);
    }
  }
  const filters = new Set(def.fields.filter((f) => f.search).map((f) => f.key));
  for (const key of def.requiredFilters?.anyOf ?? []) if (!filters.has(key)) out.set(`${def.name} required ${key}`, `${def.name}: requiredFilters names ${key}, which is not a declared filter`);
  if (def.exportType) {
    const spec = listSpecs().get(def.exportType);
    if (!spec) out.set(`${def.name} export ${def.exportType}`, `${def.name}: exportType ${def.exportType} is no list of the server (POST /exports refuses it)`);
    else if (spec.page !== def.page) out.set(`${def.name} export ${def.exportType}`, `${def.name}: exportType ${def.exportType} is the list of page ${spec.page}, the declaration's page is ${def.page}`);
  }
  return out;
}

describe('resource declarations and the server routes', () => {
  it('finds every declaration of the contract, each with its own name', () => {
    const names = declarations.map((d) => d.name);
    expect(new Set(names).size, 'two declarations with one name').toBe(names.length);
    expect(declarations.length).toBeGreaterThanOrEqual(75);
  });

  it('builds each declaration through the resource layer, or lists its hand-written route in HAND_WRITTEN with why', () => {
    const problems: string[] = [];
    const layer: string[] = [];
    for (const def of declarations) {
      const byLayer = !!resourceLayerRow(def);
      const listed = def.name in HAND_WRITTEN;
      if (byLayer) layer.push(def.name);
      if (byLayer && listed) problems.push(`${def.name}: the resource layer builds it; remove it from HAND_WRITTEN`);
      if (!byLayer && !listed) problems.push(`${def.name}: ${listRoute(def).where} is not built by the resource layer; list it in HAND_WRITTEN with why (its filters and fields are then checked against the route)`);
    }
    const names = new Set(declarations.map((d) => d.name));
    for (const name of Object.keys(HAND_WRITTEN)) if (!names.has(name)) problems.push(`${name}: in HAND_WRITTEN but no declaration of the contract`);
    expect(problems).toEqual([]);
    expect(layer.length + Object.keys(HAND_WRITTEN).length).toBe(declarations.length);
    console.log(`declarations: ${declarations.length}, ${layer.length} built by the resource layer, ${Object.keys(HAND_WRITTEN).length} hand-written and tied by this test`);
  });

  it("answers, through the resource layer, exactly the declaration's readable fields", () => {
    const problems: string[] = [];
    for (const def of declarations) {
      const row = resourceLayerRow(def);
      if (!row) continue;
      const declared = ['id', ...readableFields(def.fields).map((f) => f.key)];
      const answered = Object.keys(row.properties ?? {});
      if (JSON.stringify([...new Set(declared)].sort()) !== JSON.stringify(answered.sort())) problems.push(`${def.name}: answers ${answered.join(', ')}; declares ${declared.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });

  it('takes every declared filter and answers every declared field on each list route (known mismatches listed, and only shrinking)', () => {
    const found = new Map<string, string>();
    for (const def of declarations) for (const [key, message] of mismatches(def)) found.set(key, message);
    const unexpected = [...found].filter(([key]) => !(key in KNOWN_MISMATCHES)).map(([, message]) => message);
    expect(unexpected, 'declared filters and fields the list route does not have').toEqual([]);
    const fixed = Object.keys(KNOWN_MISMATCHES).filter((key) => !found.has(key));
    expect(fixed, 'no longer a mismatch: remove it from KNOWN_MISMATCHES').toEqual([]);
  });

  it('sees a missing filter, a missing field and a wrong type (the check itself)', () => {
    const bill = declarations.find((d) => d.name === 'bill')!;
    const broken: ResourceDef = {
      ...bill,
      fields: [
        ...bill.fields.filter((f) => f.key !== 'amount'),
        { key: 'no_such_filter', type: 'text', search: 'exact', table: false, detail: false },
        { key: 'no_such_column', type: 'text' },
        { key: 'amount', type: 'switch' },
      ],
    };
    expect([...mismatches(broken).keys()]).toEqual(['bill filter no_such_filter', 'bill field no_such_column', 'bill field amount']);
    expect(mismatches(bill).size).toBe(0);
  });
});
