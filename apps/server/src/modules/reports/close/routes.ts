import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { inArray } from 'drizzle-orm';
import { addDays } from '@dau/domain';
import { closeDayAnswer, closeDayParams, closeRunAnswer, closeRunBody, ledgerCheckAnswer, ledgerCheckBody } from '@dau/contract';
import type { AppContext } from '../../../platform/context.js';
import { authOf } from '../../../platform/access.js';
import { AppError } from '../../../platform/errors.js';
import { registerList, scopeOf } from '../../../platform/listing.js';
import { admins } from '../../../platform/schema.js';
import type { Executor } from '../../../platform/db.js';
import { differences } from './figures.js';
import { closeListSpec } from './lists.js';
import {
  DAILY_CLOSE_JOB, DAILY_CLOSE_PAGE, DAILY_CLOSE_SECONDS, LEDGER_CHECK_PAGE, balancesOf, closeDay, closeDueDays, runLedgerCheck, runsOfDay, type CloseRecord,
} from './service.js';

/**
 * Whole-book work: a branch admin sees a part of the book, never the house's close or its ledger. The rerun
 * and the ledger check declare it (a duty: refused to a branch before the body is read, and kept with who
 * ran them in the settings history); the reads check the scope themselves.
 */
const closeDuty = { ring: 'book', setting: 'daily_close' } as const;
const checkDuty = { ring: 'book', setting: 'ledger_check' } as const;

/** A read of the whole book's figures: refused to a branch admin, as the duties refuse its writes. */
async function wholeBookOnly(ex: Executor, req: FastifyRequest) {
  if (!(await scopeOf(ex, authOf(req))).all) throw new AppError(403, 'WHOLE_BOOK_ONLY');
}

/** Who ran each close (null: the nightly job). */
async function accounts(ex: Executor, closes: CloseRecord[]) {
  const ids = [...new Set(closes.map((c) => c.createdBy).filter((id): id is number => id !== null))];
  const rows = ids.length ? await ex.select({ id: admins.id, account: admins.account }).from(admins).where(inArray(admins.id, ids)) : [];
  return new Map(rows.map((r) => [r.id, r.account]));
}

const runRow = (c: CloseRecord, who: Map<number, string>) => ({
  id: c.id, day: c.day, run: c.run, source: c.source, created_by: c.createdBy, created_by_account: c.createdBy === null ? null : (who.get(c.createdBy) ?? null),
  digest: c.digest, duration_ms: c.durationMs, create_time: c.createdAt.toISOString(), figures: c.figures,
});

/**
 * Issue 30, the daily close and the ledger self-check: the closed days (a list: its export goes through the
 * exports module), one day with every run and what differs between them, a rerun of a past day, the nightly
 * job that closes yesterday, and the ledger's invariants on demand. All of it is the whole book's.
 */
export function closeRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const log = ctx.logs?.of('reports') ?? app.log;
  ctx.jobs.every(DAILY_CLOSE_JOB, DAILY_CLOSE_SECONDS, async () => {
    const done = await closeDueDays(ctx);
    for (const c of done) log.info({ close: { day: c.day, run: c.run, ggr: c.ggr, ledger_ok: c.ledgerOk } }, 'daily close stored');
  }, { expireInSeconds: 900 });

  registerList(app, db, closeListSpec as never);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/v1/reports/daily_closes/:day',
    {
      config: { access: { page: DAILY_CLOSE_PAGE } },
      schema: {
        tags: [DAILY_CLOSE_PAGE],
        summary: "A closed day: every run (newest first), the figures that differ between runs, and the roll-forward from the day before's balances",
        params: closeDayParams,
        response: { 200: closeDayAnswer },
      },
    },
    async (req) => {
      await wholeBookOnly(db, req);
      const day = req.params.day;
      const runs = await runsOfDay(db, day);
      if (!runs.length) throw new AppError(404, 'NOT_FOUND');
      const who = await accounts(db, runs);
      const diffs = runs.slice(0, -1).flatMap((run, i) => differences(runs[i + 1]!.figures, run.figures).map((d) => ({ run: run.run, previous_run: runs[i + 1]!.run, ...d })));
      const [previous] = await runsOfDay(db, addDays(day, -1)).limit(1);
      const latest = runs[0]!.figures;
      const rollForward = previous
        ? (() => {
            const expected = balancesOf(previous.figures) + latest.movement.cash + latest.movement.credit;
            const balances = balancesOf(latest);
            return { previous_day: previous.day, previous_balances: balancesOf(previous.figures), movement: latest.movement.cash + latest.movement.credit, expected, balances, ok: expected === balances };
          })()
        : null;
      return { day, runs: runs.map((c) => runRow(c, who)), differences: diffs, roll_forward: rollForward };
    },
  );

  r.post(
    '/api/v1/reports/daily_closes/run',
    {
      config: { access: { page: DAILY_CLOSE_PAGE, button: 'run', duty: closeDuty } },
      schema: {
        tags: [DAILY_CLOSE_PAGE],
        summary: "Close a past day again from the ledger: a new run when the figures differ from the day's latest, else that run (changed false); 422 for a day not over",
        body: closeRunBody,
        response: { 200: closeRunAnswer },
      },
    },
    async (req) => {
      const admin = authOf(req).admin;
      const { changed, close } = await closeDay(ctx, req.body.day, { source: 'admin', adminId: admin.id });
      return { changed, run: runRow(close, await accounts(db, [close])) };
    },
  );

  r.post(
    '/api/v1/reports/ledger_check/run',
    {
      config: { access: { page: LEDGER_CHECK_PAGE, button: 'run', duty: checkDuty } },
      schema: {
        tags: [LEDGER_CHECK_PAGE],
        summary: "Check the ledger's invariants now (balances = sums of bills, bills chained, journal balanced) and list the offending rows",
        body: ledgerCheckBody,
        response: { 200: ledgerCheckAnswer },
      },
    },
    async (req) => runLedgerCheck(db, req.body.limit ?? 100),
  );
}

