import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { isDay } from '@dau/domain';
import { bigIdParams, rawText } from '@dau/contract';
import type { AppContext } from '../../../platform/context.js';
import { authOf } from '../../../platform/access.js';
import { notFound } from '../../../platform/errors.js';
import { registerList, scopeOf } from '../../../platform/listing.js';
import { paymentsOf } from '../callbacks.js';
import { isPayType, type PayType } from '../operators.js';
import { itemListSpec, selectStatements, statementListSpec, statementRow, toStatementRow } from './lists.js';
import { operatorStatements as statements } from './schema.js';
import { STATEMENTS_DAILY_JOB, STATEMENT_MAX_CHARS, STATEMENTS_PAGE, fetchAndImport, importStatement, reconcileYesterday } from './service.js';

const tags = [STATEMENTS_PAGE];
/** Once an hour every process offers the daily job; it does yesterday's work once (a day fetched is left alone). */
const DAILY_SECONDS = 3600;
/** Whole-book work: a branch admin sees a part of the book, never a whole operator account. */
const duty = { ring: 'book' as const, setting: STATEMENTS_PAGE };

const payType = z.number().int().refine(isPayType, 'a mobile-money pay type (3, 4, 6, 7)');
const day = z.string().refine(isDay, 'YYYY-MM-DD');
const importBody = z.strictObject({
  pay_type: payType,
  day,
  /** The file's format; default the provider that carries the pay type now. */
  provider: z.enum(['mpesa', 'airtel', 'aggregator']).optional(),
  file_name: rawText(200).optional(),
  /** The file's text (CSV as the portal exported it). */
  text: z.string().min(1).max(STATEMENT_MAX_CHARS),
});
const fetchBody = z.strictObject({ pay_type: payType, day });

/**
 * Issue 28, statements reconciled: the statements list and each one's findings (ListSpecs: their exports
 * go through the exports module), the upload of a portal's file, "fetch now" from the provider's portal
 * (the built-in sandbox's), and the daily job that fetches and reconciles yesterday's.
 */
export function statementRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const log = ctx.logs?.of('payments') ?? app.log;
  ctx.jobs.every(STATEMENTS_DAILY_JOB, DAILY_SECONDS, async () => {
    const done = await reconcileYesterday(ctx, Date.now(), (msg, extra) => log.warn({ statements: extra }, msg));
    if (done.length) log.info({ statements: done.map((s) => ({ id: s.id, pay_type: s.payType, day: s.day, result: s.result })) }, 'daily statements reconciled');
  });

  registerList(app, db, statementListSpec as never);
  registerList(app, db, itemListSpec as never);

  const r = app.withTypeProvider<ZodTypeProvider>();
  const answer = async (id: number) => {
    const [row] = await selectStatements(db).where(eq(statements.id, id));
    if (!row) throw notFound();
    return toStatementRow(row);
  };

  r.get(
    '/api/v1/money/operator_statements/:id',
    { config: { access: { page: STATEMENTS_PAGE } }, schema: { tags, summary: "One operator's statement with its counts", params: bigIdParams, response: { 200: statementRow } } },
    async (req) => {
      if (!(await scopeOf(db, authOf(req))).all) throw notFound();
      return answer(req.params.id);
    },
  );

  r.post(
    '/api/v1/money/operator_statements/import',
    {
      bodyLimit: STATEMENT_MAX_CHARS + 64 * 1024,
      config: { access: { page: STATEMENTS_PAGE, button: 'import', duty } },
      schema: {
        tags,
        summary: "Import a day's statement file from the operator's portal and match it against our recharges and withdrawals (422: the line the format cannot read)",
        body: importBody,
        response: { 201: statementRow },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const s = await importStatement(ctx, {
        payType: b.pay_type as PayType, day: b.day, provider: b.provider, source: 'uploaded', fileName: b.file_name ?? '', text: b.text,
        adminId: authOf(req).admin.id, req,
      });
      return reply.status(201).send(await answer(s.id));
    },
  );

  r.post(
    '/api/v1/money/operator_statements/fetch',
    {
      config: { access: { page: STATEMENTS_PAGE, button: 'import', duty } },
      schema: {
        tags,
        summary: "Fetch a day's statement from the provider's portal (the built-in sandbox's; 409 for a production account: upload its file) and match it",
        body: fetchBody,
        response: { 201: statementRow },
      },
    },
    async (req, reply) => {
      const s = await fetchAndImport(ctx, { payType: req.body.pay_type as PayType, day: req.body.day, adminId: authOf(req).admin.id, req });
      return reply.status(201).send(await answer(s.id));
    },
  );
}
