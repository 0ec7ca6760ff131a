import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import { addDays, dayStart, isDay } from '@dau/domain';
import type { Db } from '../../../platform/db.js';
import { isPayType, type PayType } from '../operators.js';
import type { ProviderId } from '../provider.js';
import { sandboxOperatorTxns as txns } from '../schema.js';
import { STATEMENT_FORMATS, type PortalTxn } from './formats.js';

/**
 * The built-in sandbox's "portal" (issue 28): where an operator's back office would let us download a
 * day's statement, the sandbox serves the file in the provider's own format, written from its books
 * (sandbox_operator_txns: the transactions completed on the day, success or failed, made through that
 * provider's face). Mounted at the sandbox server's root, beside the API faces (`/<provider>/…`), since
 * it is no part of any provider's API: `GET /portal/<provider>/statement?pay_type=6&day=2026-12-04`.
 */
export const portalPath = (provider: ProviderId, payType: PayType, day: string) => `/portal/${provider}/statement?pay_type=${payType}&day=${day}`;

const params = z.object({ provider: z.enum(['mpesa', 'airtel', 'aggregator']) });
const query = z.object({
  pay_type: z.coerce.number().int().refine(isPayType, 'not a mobile-money pay type'),
  day: z.string().refine(isDay, 'YYYY-MM-DD'),
});

export function sandboxStatementRoutes(app: FastifyInstance, deps: { db: Db }) {
  // Checked by hand: the sandbox server has no zod compilers (its faces parse the APIs' own payloads).
  app.get('/portal/:provider/statement', async (req, reply) => {
    const p = params.safeParse(req.params);
    const q = query.safeParse(req.query);
    if (!p.success || !q.success) return reply.status(400).send({ error: 'provider, pay_type and day (YYYY-MM-DD) are required' });
    const { provider } = p.data;
    const payType = q.data.pay_type as PayType;
    const day = q.data.day;
    const format = STATEMENT_FORMATS[provider];
    const rows = await deps.db
      .select()
      .from(txns)
      .where(
        and(
          eq(txns.payType, payType),
          inArray(txns.status, ['success', 'failed']),
          gte(txns.completedAt, dayStart(day)),
          lt(txns.completedAt, dayStart(addDays(day, 1))),
          // The transactions this provider's face made (a face that does not say is every provider's).
          sql`coalesce(${txns.extra}->>'face', ${provider}) = ${provider}`,
        ),
      )
      .orderBy(asc(txns.completedAt), asc(txns.id));
    const list: PortalTxn[] = rows.map((r) => ({
      kind: r.kind as PortalTxn['kind'], reference: r.reference, carrierRef: r.carrierRef, phone: r.phone, amount: Number(r.amount),
      status: r.status as PortalTxn['status'], completedAt: r.completedAt!,
    }));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${format.fileName(payType, day)}"`)
      .send(format.render(list, payType, day));
  });
}
