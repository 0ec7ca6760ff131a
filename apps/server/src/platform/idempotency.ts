import type { FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { requestKeys } from './schema.js';
import type { Db, Tx } from './db.js';
import { badRequest } from './errors.js';

/**
 * Runs a money-moving handler once per `Idempotency-Key` (header, 8-100 characters, per admin). The key
 * row is inserted first in the same transaction: a concurrent repeat waits on it, then reads the stored
 * answer instead of moving money again. Without the header the handler simply runs in a transaction.
 */
export async function idempotent<T>(db: Db, req: FastifyRequest, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const raw = req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined) return db.transaction((tx) => fn(tx));
  if (!/^[A-Za-z0-9_.:-]{8,100}$/.test(key)) throw badRequest('PARAM_INVALID', [{ field: 'Idempotency-Key' }]);
  const adminId = req.auth?.admin.id ?? 0;
  const scoped = `${adminId}:${key}`;
  const route = `${req.method} ${req.url}`;
  return db.transaction(async (tx) => {
    const mine = await tx
      .insert(requestKeys)
      .values({ key: scoped, adminId, route, status: 0, response: {} })
      .onConflictDoNothing()
      .returning({ key: requestKeys.key });
    if (!mine.length) {
      const [prev] = await tx.select().from(requestKeys).where(eq(requestKeys.key, scoped));
      if (prev.route !== route) throw badRequest('PARAM_INVALID', [{ field: 'Idempotency-Key', message: 'used for another request' }]);
      req.audited = true;
      return prev.response as T;
    }
    const result = await fn(tx);
    await tx.update(requestKeys).set({ status: 200, response: sql`${JSON.stringify(result ?? null)}::jsonb` }).where(eq(requestKeys.key, scoped));
    return result;
  });
}
