import type { FastifyRequest } from 'fastify';
import { message } from '@dau/domain';
import type { BulkOutcome } from '@dau/contract';
import { writeAudit } from './audit.js';
import type { Executor } from './db.js';
import { AppError } from './errors.js';
import { localeOf } from './http.js';

/**
 * Bulk actions (issue 29): the selected rows of a list acted on in one call. Each id runs the row's own
 * single action (the same service, with its permission, scope, ownership and state rules), which opens its
 * own transaction: a refused row rolls back alone and the others stand. A refusal is that row's outcome,
 * with the code and text the single route would have answered; the call answers 200 with every row.
 * Repeating a call is safe as the single action is: its state guard (a conditional UPDATE) refuses a row
 * already handled, so no row is acted on twice. Ids are taken once each, in the order given.
 *
 * One audit row sums the call up (what each row did is in its own audit row, written by its action):
 * refused rows leave their trace there.
 */
export async function eachRow<K extends number | string>(
  req: FastifyRequest,
  audit: { db: Executor; type: number; what: string },
  ids: readonly K[],
  act: (id: K) => Promise<{ status?: number } | void>,
): Promise<{ items: BulkOutcome[] }> {
  const locale = localeOf(req);
  const items: BulkOutcome[] = [];
  for (const id of [...new Set(ids)]) {
    try {
      const done = await act(id);
      items.push({ id, ok: true, ...(done?.status !== undefined ? { status: done.status } : {}) });
    } catch (err) {
      if (err instanceof AppError) {
        items.push({ id, ok: false, code: err.code, message: message(err.code, locale, err.params) });
      } else {
        // An unexpected failure of one row (its transaction rolled back) does not hide what the others did.
        req.log.error({ err, id }, `${audit.what}: row failed`);
        items.push({ id, ok: false, code: 'INTERNAL', message: message('INTERNAL', locale) });
      }
    }
  }
  const refused = items.filter((i) => !i.ok);
  await writeAudit(audit.db, req, {
    type: audit.type,
    content: `${audit.what}: ${items.length - refused.length} of ${items.length} done${refused.length ? `; refused ${refused.map((i) => `${i.id} ${i.code}`).join(', ')}` : ''}`,
    after: { items },
  });
  return { items };
}
