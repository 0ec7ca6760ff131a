import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { aliasedTable, asc, eq, inArray } from 'drizzle-orm';
import { LOG_TYPE } from '@dau/domain';
import type { AppContext } from '../../../platform/context.js';
import type { Executor } from '../../../platform/db.js';
import { authOf } from '../../../platform/access.js';
import { writeAudit } from '../../../platform/audit.js';
import { registerList, scopeOf } from '../../../platform/listing.js';
import { admins } from '../../../platform/schema.js';
import { TAX_PAGE, gamingReturn, gamingRow, monthParam, toGamingRow, wholeBookOnly, whtBettors, whtOrders } from './lists.js';
import { isMonth, monthOf } from './month.js';
import { PRODUCT_KEYS } from './products.js';
import { rateSchedule, ratesFor, type RateRow } from './rates.js';
import { gamingTaxRates, taxReturnProducts, taxReturns } from './schema.js';
import { defineTaxJobs, requestReturn } from './service.js';

const tags = [TAX_PAGE];
/** The rates' setting: whole book, every field waits for a second admin, kept in the settings history. */
const RATES_SETTING = 'gaming_tax_rates';
const RATE_FIELDS = ['effective_month', 'sports_bps', 'jackpot_bps', 'casino_bps', 'racing_bps'] as const;

const monthParams = z.object({ month: monthParam });
const bps = z.number().int().min(0).max(10_000);

const ratesShape = { effective_month: z.string(), sports_bps: z.number(), jackpot_bps: z.number(), casino_bps: z.number(), racing_bps: z.number() };
const scheduleRow = z.object({ ...ratesShape, requested_account: z.string().nullable(), approved_account: z.string().nullable(), updated_at: z.string() });
/** The rates as the setting reads: the latest row of the schedule (top level), the row in force this month and the schedule. */
const ratesAnswer = z.object({ ...ratesShape, in_force: z.object(ratesShape), schedule: z.array(scheduleRow) });
const ratesBody = z.strictObject({
  /** The first month (YYYY-MM, Africa/Dar_es_Salaam) the rates apply to: this month or a later one, never a month already over. */
  effective_month: z
    .string()
    .refine(isMonth, 'a month as YYYY-MM')
    .refine((m) => m >= monthOf(Date.now()), 'this month or a later one: a month already over keeps the rate it was filed with'),
  sports_bps: bps,
  jackpot_bps: bps,
  casino_bps: bps,
  racing_bps: bps,
});

const returnAnswer = z.object({
  month: z.string(),
  /** none (never computed), queued, computing, ready, failed. */
  status: z.string(),
  run: z.number(),
  final: z.boolean(),
  requested_at: z.string().nullable(),
  requested_account: z.string().nullable(),
  computed_at: z.string().nullable(),
  error: z.string().nullable(),
  wht: z.object({ total: z.number(), attributed: z.number(), unattributed: z.number(), orders: z.number(), bettors: z.number() }),
  products: z.array(gamingRow),
  totals: z.object({ stakes: z.number(), payouts: z.number(), ggr: z.number(), gaming_tax: z.number(), wht: z.number() }),
  /** The rates in force for the month now (the products' rows say the rate each was computed with). */
  rates: z.object(ratesShape),
});

const rateView = (r: RateRow) => ({ effective_month: r.effectiveMonth, sports_bps: r.sportsBps, jackpot_bps: r.jackpotBps, casino_bps: r.casinoBps, racing_bps: r.racingBps });

async function ratesView(ex: Executor) {
  const rows = await rateSchedule(ex).limit(36);
  const ids = [...new Set(rows.flatMap((r) => [r.requestedBy, r.approvedBy]).filter((x): x is number => x !== null))];
  const names = new Map(ids.length ? (await ex.select({ id: admins.id, account: admins.account }).from(admins).where(inArray(admins.id, ids))).map((a) => [a.id, a.account]) : []);
  const latest = rows[0]!;
  return {
    ...rateView(latest),
    in_force: rateView(await ratesFor(ex, monthOf(Date.now()))),
    schedule: rows.map((r) => ({
      ...rateView(r), requested_account: r.requestedBy === null ? null : (names.get(r.requestedBy) ?? null),
      approved_account: r.approvedBy === null ? null : (names.get(r.approvedBy) ?? null), updated_at: r.updatedAt.toISOString(),
    })),
  };
}

const requester = aliasedTable(admins, 'tax_return_requester');

async function returnView(ex: Executor, month: string): Promise<z.infer<typeof returnAnswer>> {
  const [h] = await ex.select({ h: taxReturns, account: requester.account }).from(taxReturns).leftJoin(requester, eq(requester.id, taxReturns.requestedBy)).where(eq(taxReturns.month, month));
  const products = (await ex.select().from(taxReturnProducts).where(eq(taxReturnProducts.month, month)).orderBy(asc(taxReturnProducts.product))).map(toGamingRow);
  const sum = (k: 'stakes' | 'payouts' | 'ggr' | 'gaming_tax' | 'wht') => products.reduce((a, p) => a + p[k], 0);
  return {
    month,
    status: h?.h.status ?? 'none',
    run: h?.h.run ?? 0,
    final: h?.h.final ?? false,
    requested_at: h ? h.h.requestedAt.toISOString() : null,
    requested_account: h?.account ?? null,
    computed_at: h?.h.computedAt ? h.h.computedAt.toISOString() : null,
    error: h?.h.error ?? null,
    wht: { total: Number(h?.h.whtTotal ?? 0), attributed: Number(h?.h.whtAttributed ?? 0), unattributed: h?.h.unattributed ?? 0, orders: h?.h.orders ?? 0, bettors: h?.h.bettors ?? 0 },
    products,
    totals: { stakes: sum('stakes'), payouts: sum('payouts'), ggr: sum('ggr'), gaming_tax: sum('gaming_tax'), wht: sum('wht') },
    rates: rateView(await ratesFor(ex, month)),
  };
}

/**
 * Issue 30, tax returns (page `tax_returns`, the whole book's): a month's return (TRA withholding tax on
 * winnings per order, per bettor and in total; the Gaming Board's return per product) computed as a
 * background job and stored; its lists and their exports; the gaming tax rates, whose change waits for a
 * second whole-book admin (platform/duties.ts) and is kept in the settings history.
 */
export function taxRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  defineTaxJobs(ctx, ctx.logs?.of('reports') ?? app.log);
  registerList(app, db, whtOrders as never);
  registerList(app, db, whtBettors as never);
  registerList(app, db, gamingReturn as never);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const assertWholeBook = async (req: Parameters<typeof authOf>[0]) => wholeBookOnly(await scopeOf(db, authOf(req)));

  r.get(
    '/api/v1/reports/tax/returns/:month',
    {
      config: { access: { page: TAX_PAGE } },
      schema: { tags, summary: "A month's tax return as last computed: its state, the withholding tax totals, the Gaming Board's lines per product and the rates in force", params: monthParams, response: { 200: returnAnswer } },
    },
    async (req) => {
      await assertWholeBook(req);
      return returnView(db, req.params.month);
    },
  );

  r.post(
    '/api/v1/reports/tax/returns/:month/compute',
    {
      config: { access: { page: TAX_PAGE, duty: { ring: 'book', setting: TAX_PAGE } } },
      schema: { tags, summary: "(Re)compute a month's return from the ledger, as a background job (the state says when it is ready)", params: monthParams, response: { 202: returnAnswer } },
    },
    async (req, reply) => {
      const month = req.params.month;
      await db.transaction(async (tx) => {
        const h = await requestReturn(ctx, tx, month, authOf(req).admin.id);
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Asked for the tax return of ${month} (run ${h.run})`, after: { month, run: h.run } });
      });
      return reply.status(202).send(await returnView(db, month));
    },
  );

  r.get(
    '/api/v1/reports/tax/gaming_rates',
    {
      config: { access: { page: TAX_PAGE } },
      schema: { tags, summary: "The Gaming Board's tax rates per product (bps of GGR): the latest row of the schedule, the row in force this month and the schedule", response: { 200: ratesAnswer } },
    },
    async (req) => {
      await assertWholeBook(req);
      return ratesView(db);
    },
  );

  r.put(
    '/api/v1/reports/tax/gaming_rates',
    {
      config: { access: { page: TAX_PAGE, button: 'edit', duty: { ring: 'two', fields: [...RATE_FIELDS], setting: RATES_SETTING } } },
      schema: {
        tags,
        summary: "Set the gaming tax rates from a month on (this month or later; whole book; waits for a second admin; kept in the settings history)",
        body: ratesBody,
        response: { 200: ratesAnswer },
      },
    },
    async (req) => {
      const b = req.body;
      const me = authOf(req).admin.id;
      const requestedBy = req.dutyApproval?.requestedBy ?? me;
      const approvedBy = req.dutyApproval ? me : null;
      return db.transaction(async (tx) => {
        const before = await ratesFor(tx, b.effective_month);
        const values = { sportsBps: b.sports_bps, jackpotBps: b.jackpot_bps, casinoBps: b.casino_bps, racingBps: b.racing_bps, requestedBy, approvedBy, updatedAt: new Date() };
        await tx.insert(gamingTaxRates).values({ effectiveMonth: b.effective_month, ...values }).onConflictDoUpdate({ target: gamingTaxRates.effectiveMonth, set: values });
        await writeAudit(tx, req, {
          type: LOG_TYPE.ordinary,
          content: `Gaming tax rates from ${b.effective_month}: ${PRODUCT_KEYS.map((k) => `${k} ${b[`${k}_bps`]} bps`).join(', ')}`,
          before: rateView(before), after: { ...b },
        });
        return ratesView(tx);
      });
    },
  );
}
