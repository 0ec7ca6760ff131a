import type { FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { requestKeys } from './schema.js';
import type { Db, Tx } from './db.js';
import { badRequest, unprocessable } from './errors.js';
import { sha256 } from './crypto.js';

/** JSON with the keys of every object in sorted order: the same body always gives the same text. */
export function canonicalJson(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v ?? null);
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`).join(',')}}`;
}

/**
 * Runs a money-moving handler once per `Idempotency-Key` (header, 8-100 characters, per admin). The key
 * row is inserted first in the same transaction: a concurrent repeat waits on it, then reads the stored
 * answer instead of moving money again. The key is stored with the SHA-256 of the (validated) body as
 * canonical JSON: a repeat with another body is refused with 422 IDEMPOTENCY_KEY_REUSED, as payment APIs
 * do, instead of answering the first request's result. Without the header the handler simply runs in a
 * transaction.
 */
export async function idempotent<T>(db: Db, req: FastifyRequest, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const raw = req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined) return db.transaction((tx) => fn(tx));
  if (!/^[A-Za-z0-9_.:-]{8,100}$/.test(key)) throw badRequest('PARAM_INVALID', [{ field: 'Idempotency-Key' }]);
  const adminId = req.auth?.admin.id ?? 0;
  const scoped = `${adminId}:${key}`;
  const route = `${req.method} ${req.url}`;
  const bodyHash = sha256(canonicalJson(req.body));
  return db.transaction(async (tx) => {
    const mine = await tx
      .insert(requestKeys)
      .values({ key: scoped, adminId, route, bodyHash, status: 0, response: {} })
      .onConflictDoNothing()
      .returning({ key: requestKeys.key });
    if (!mine.length) {
      const [prev] = await tx.select().from(requestKeys).where(eq(requestKeys.key, scoped));
      if (prev.route !== route) throw badRequest('PARAM_INVALID', [{ field: 'Idempotency-Key', message: 'used for another request' }]);
      if (prev.bodyHash !== null && prev.bodyHash !== bodyHash) throw unprocessable('IDEMPOTENCY_KEY_REUSED');
      req.audited = true;
      return prev.response as T;
    }
    const result = await fn(tx);
    await tx.update(requestKeys).set({ status: 200, response: sql`${JSON.stringify(result ?? null)}::jsonb` }).where(eq(requestKeys.key, scoped));
    return result;
  });
}
