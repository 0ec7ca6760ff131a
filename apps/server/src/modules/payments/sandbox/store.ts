import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db.js';
import type { PayType } from '../operators.js';
import type { SandboxStore, SandboxTxn } from './engine.js';
import { sandboxOperatorTxns as txns } from '../schema.js';

type Row = typeof txns.$inferSelect;

const toTxn = (r: Row): SandboxTxn => ({
  kind: r.kind as SandboxTxn['kind'],
  reference: r.reference,
  carrierRef: r.carrierRef,
  phone: r.phone,
  amount: Number(r.amount),
  status: r.status as SandboxTxn['status'],
  reason: r.reason ?? undefined,
  plannedStatus: r.plannedStatus as SandboxTxn['plannedStatus'],
  plannedReason: r.plannedReason ?? undefined,
  callbacks: r.callbacks,
  dueAt: Number(r.dueAt),
  events: r.events,
  extra: (r.extra ?? {}) as Record<string, unknown>,
});

/**
 * The sandbox operators' ledger in the database (table sandbox_operator_txns): the sandbox remembers its
 * transactions across our restarts and across server processes, as a real operator does. Opening is one
 * INSERT … ON CONFLICT DO NOTHING on (pay type, reference), so two requests with one reference, from one
 * process or two, make one transaction; completing is one conditional UPDATE on `pending`.
 */
export class DbSandboxStore implements SandboxStore {
  constructor(private db: Db) {}

  async find(payType: PayType, ref: string) {
    const [r] = await this.db
      .select()
      .from(txns)
      .where(and(eq(txns.payType, payType), or(eq(txns.reference, ref), eq(txns.carrierRef, ref))))
      .limit(1);
    return r ? toTxn(r) : undefined;
  }

  async open(payType: PayType, t: SandboxTxn) {
    const [r] = await this.db
      .insert(txns)
      .values({
        payType, kind: t.kind, reference: t.reference, carrierRef: t.carrierRef, phone: t.phone, amount: t.amount, status: 'pending',
        plannedStatus: t.plannedStatus, plannedReason: t.plannedReason ?? null, callbacks: t.callbacks, dueAt: t.dueAt, extra: t.extra ?? {},
      })
      .onConflictDoNothing({ target: [txns.payType, txns.reference] })
      .returning();
    if (r) return { txn: toTxn(r), created: true };
    const existing = await this.find(payType, t.reference);
    if (!existing) throw new Error(`sandbox: transaction ${t.reference} neither opened nor found`);
    return { txn: existing, created: false };
  }

  async complete(payType: PayType, reference: string) {
    await this.db
      .update(txns)
      .set({ status: sql`${txns.plannedStatus}`, reason: sql`${txns.plannedReason}`, completedAt: sql`now()` })
      .where(and(eq(txns.payType, payType), eq(txns.reference, reference), eq(txns.status, 'pending')));
    return this.find(payType, reference);
  }

  async nextEvent(payType: PayType, reference: string) {
    const [r] = await this.db
      .update(txns)
      .set({ events: sql`${txns.events} + 1` })
      .where(and(eq(txns.payType, payType), eq(txns.reference, reference)))
      .returning({ events: txns.events });
    return r?.events ?? 0;
  }

  async annotate(payType: PayType, reference: string, extra: Record<string, unknown>) {
    await this.db
      .update(txns)
      .set({ extra: sql`${txns.extra} || ${JSON.stringify(extra)}::jsonb` })
      .where(and(eq(txns.payType, payType), eq(txns.reference, reference)));
  }
}
