import crypto from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { and, desc, eq, gte, inArray, lt, max, or, sql } from 'drizzle-orm';
import { LOG_TYPE, PAY_STATUS, WITHDRAWAL_STATUS, addDays, dayStart, localDay } from '@dau/domain';
import type { AppContext } from '../../../platform/context.js';
import type { Db, Executor } from '../../../platform/db.js';
import { AppError, badRequest } from '../../../platform/errors.js';
import { writeAudit } from '../../../platform/audit.js';
import { adminAuthOf } from '../../../platform/access.js';
import { scopeOf } from '../../../platform/listing.js';
import { createNotices, noticeRecipients, publishNotices, type NoticeEvent } from '../../notices/index.js';
import { PAY_TYPES, isPayType, type PayType } from '../operators.js';
import type { ProviderId } from '../provider.js';
import { PROVIDERS, SANDBOX_ORIGIN, providerOf } from '../providers.js';
import { paymentProviders, recharges, withdrawals } from '../schema.js';
import { paymentsOf } from '../callbacks.js';
import { inProcessFetch } from '../sandbox/server.js';
import { StatementFormatError } from './csv.js';
import { STATEMENT_FORMATS, type LineStatus, type StatementLine } from './formats.js';
import { matchStatement, tally, type Finding, type OurPayment } from './match.js';
import { operatorStatementItems as items, operatorStatements as statements } from './schema.js';
import { portalPath } from './sandbox-portal.js';

/** The whole-book page of the statements: its holders hear of a day that does not match. */
export const STATEMENTS_PAGE = 'operator_statements';
/** The daily reconciliation of yesterday's statements (a periodic job: one run per slot among all processes). */
export const STATEMENTS_DAILY_JOB = 'payments.statements-daily';
/** Largest statement file accepted (a busy day's CSV of tens of thousands of lines fits). */
export const STATEMENT_MAX_CHARS = 8 * 1024 * 1024;

export type StatementRecord = typeof statements.$inferSelect;

export interface ImportInput {
  payType: PayType;
  /** The statement's day, Africa/Dar_es_Salaam (YYYY-MM-DD). */
  day: string;
  /** The file's provider format; default: the provider that carries the pay type now. */
  provider?: ProviderId;
  source: 'uploaded' | 'fetched';
  fileName: string;
  text: string;
  /** Who imported it (null: the daily job). */
  adminId: number | null;
  req: FastifyRequest | null;
}

const NAMES: Record<PayType, string> = { 3: 'Tigo Pesa', 4: 'Airtel Money', 6: 'Vodacom M-Pesa', 7: 'HaloPesa' };

/** The provider of a pay type's statement: the one asked for (if it can carry the pay type), else the current one. */
async function formatProvider(ex: Executor, payType: PayType, asked?: ProviderId): Promise<ProviderId> {
  if (asked) {
    if (!PROVIDERS[asked].payTypes.includes(payType)) throw badRequest('PARAM_INVALID', [{ field: 'provider', message: `${asked} does not carry pay type ${payType}` }]);
    return asked;
  }
  return (await providerOf(ex))[payType];
}

/** Reads a file in its provider's format; a file the format cannot read is refused 422 with its line. */
export function parseStatement(provider: ProviderId, payType: PayType, text: string) {
  try {
    return STATEMENT_FORMATS[provider].parse(text, payType);
  } catch (err) {
    if (err instanceof StatementFormatError) {
      throw new AppError(422, 'PARAM_INVALID', {}, [{ field: 'text', line: err.line, message: err.message }]);
    }
    throw err;
  }
}

const rechargeStatus = (s: number): LineStatus => (s === PAY_STATUS.paid ? 'success' : s === PAY_STATUS.voided ? 'failed' : 'pending');
const withdrawalStatus = (s: number): LineStatus =>
  s === WITHDRAWAL_STATUS.paid ? 'success'
  : s === WITHDRAWAL_STATUS.failed || s === WITHDRAWAL_STATUS.timed_out || s === WITHDRAWAL_STATUS.refused ? 'failed'
  : 'pending';

/**
 * Our side of a day: the payments the lines name (by serial number or operator id, whatever their day)
 * and the payments paid on the day (the candidates for "ours only").
 */
async function ourPayments(ex: Executor, payType: PayType, day: string, lines: readonly StatementLine[]): Promise<OurPayment[]> {
  const from = dayStart(day);
  const to = dayStart(addDays(day, 1));
  const refsOf = (kind: 'collect' | 'disburse') => {
    const ls = lines.filter((l) => l.kind === kind);
    return { serials: [...new Set(ls.flatMap((l) => (l.reference ? [l.reference] : [])))], carriers: [...new Set(ls.map((l) => l.operatorRef))] };
  };
  const named = (serialCol: PgColumn, carrierCol: PgColumn, refs: { serials: string[]; carriers: string[] }) =>
    or(
      refs.serials.length ? inArray(serialCol, refs.serials) : undefined,
      refs.carriers.length ? inArray(carrierCol, refs.carriers) : undefined,
    );
  const paidOn = (col: typeof recharges.paidAt | typeof withdrawals.paidAt) => and(gte(col, from), lt(col, to));
  const inDay = (d: Date | null) => !!d && d >= from && d < to;

  const rc = refsOf('collect');
  const rs = await ex
    .select()
    .from(recharges)
    .where(and(eq(recharges.payType, payType), or(and(eq(recharges.payStatus, PAY_STATUS.paid), paidOn(recharges.paidAt)), named(recharges.serialNumber, recharges.carrierOrderNumber, rc))));
  const wd = refsOf('disburse');
  const ws = await ex
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.payType, payType), or(and(eq(withdrawals.status, WITHDRAWAL_STATUS.paid), paidOn(withdrawals.paidAt)), named(withdrawals.serialNumber, withdrawals.carrierOrderNumber, wd))));
  return [
    ...rs.map((r): OurPayment => ({
      direction: 'collect', id: r.id, serial: r.serialNumber, carrierRef: r.carrierOrderNumber, amount: r.amount, status: rechargeStatus(r.payStatus),
      awaitingOperator: r.payStatus === PAY_STATUS.processing, paidOnDay: inDay(r.paidAt),
    })),
    ...ws.map((w): OurPayment => ({
      direction: 'disburse', id: w.id, serial: w.serialNumber, carrierRef: w.carrierOrderNumber, amount: w.amount, status: withdrawalStatus(w.status),
      awaitingOperator: w.status === WITHDRAWAL_STATUS.disbursing, paidOnDay: inDay(w.paidAt),
    })),
  ];
}

/** The whole-book admins holding the page (a branch admin cannot open the statements: they hear nothing of them). */
async function wholeBookListeners(db: Db): Promise<number[]> {
  const out: number[] = [];
  for (const c of await noticeRecipients(db, STATEMENTS_PAGE)) {
    if (c.isSuper) {
      out.push(c.id);
      continue;
    }
    const auth = await adminAuthOf(db, c.id);
    if (auth && (await scopeOf(db, auth)).all) out.push(c.id);
  }
  return out;
}

function noticeText(s: StatementRecord) {
  const parts = [
    s.oursOnly && `${s.oursOnly} ours only`, s.theirsOnly && `${s.theirsOnly} theirs only`,
    s.amountMismatch && `${s.amountMismatch} amount mismatch`, s.statusMismatch && `${s.statusMismatch} status mismatch`,
  ].filter(Boolean);
  return `${NAMES[s.payType as PayType] ?? `Pay type ${s.payType}`} statement of ${s.day} does not match: ${parts.join(', ')}. Operator statements #${s.id}.`;
}

/**
 * Imports a day's statement: parses the file in its provider's format, matches the lines of the day
 * against our payments, and stores the statement (the next version of the day: earlier imports stay) with
 * its findings, the audit row and, when the day does not match, the notices: one transaction.
 */
export async function importStatement(ctx: Pick<AppContext, 'db' | 'bus'>, o: ImportInput): Promise<StatementRecord> {
  const { db } = ctx;
  if (!isPayType(o.payType)) throw badRequest('PARAM_INVALID', [{ field: 'pay_type' }]);
  if (o.text.length > STATEMENT_MAX_CHARS) throw new AppError(413, 'PARAM_INVALID', {}, [{ field: 'text', message: 'the file is too large' }]);
  const provider = await formatProvider(db, o.payType, o.provider);
  const parsed = parseStatement(provider, o.payType, o.text);
  // A portal export may run past midnight: the lines of other days belong to those days' statements.
  const lines = parsed.lines.filter((l) => localDay(l.time) === o.day);
  const skipped = parsed.skipped + parsed.lines.length - lines.length;
  const sha = crypto.createHash('sha256').update(o.text).digest('hex');

  // Read before the transaction (an embedded database has one connection: no query beside it).
  const listeners = await wholeBookListeners(db);
  let events: NoticeEvent[] = [];
  const statement = await db.transaction(async (tx) => {
    // One import of a pay type and day at a time: the version numbers follow each other.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`operator-statement:${o.payType}:${o.day}`}))`);
    const findings = matchStatement(lines, await ourPayments(tx, o.payType, o.day, lines));
    const { counts, result } = tally(findings);
    const [{ v }] = await tx.select({ v: max(statements.version) }).from(statements).where(and(eq(statements.payType, o.payType), eq(statements.day, o.day)));
    const sum = (pick: (l: StatementLine) => boolean) => lines.filter((l) => l.status === 'success' && pick(l)).reduce((a, l) => a + l.amount, 0);
    const ours = (dir: 'collect' | 'disburse') => findings.reduce((a, f) => a + (f.ours?.direction === dir && f.ours.paidOnDay && f.ours.status === 'success' ? f.ours.amount : 0), 0);
    const [s] = await tx
      .insert(statements)
      .values({
        provider, payType: o.payType, day: o.day, version: (v ?? 0) + 1, source: o.source, fileName: o.fileName.slice(0, 200), fileSha256: sha,
        lines: lines.length, skipped, theirCollect: sum((l) => l.kind === 'collect'), theirDisburse: sum((l) => l.kind === 'disburse'),
        ourCollect: ours('collect'), ourDisburse: ours('disburse'), result,
        matched: counts.matched, oursOnly: counts.ours_only, theirsOnly: counts.theirs_only, amountMismatch: counts.amount_mismatch, statusMismatch: counts.status_mismatch,
        createdBy: o.adminId,
      })
      .returning();
    const rows = findings.map((f) => itemRow(s!.id, f));
    for (let i = 0; i < rows.length; i += 1000) await tx.insert(items).values(rows.slice(i, i + 1000));
    await writeAudit(tx, o.req, {
      type: LOG_TYPE.ordinary,
      adminId: o.adminId,
      content: `Imported the ${NAMES[o.payType]} statement of ${o.day} (${o.source}, version ${s!.version}): ${result}, ${lines.length} lines, ${counts.matched} matched`,
      after: { id: s!.id, provider, pay_type: o.payType, day: o.day, version: s!.version, source: o.source, file_name: s!.fileName, sha256: sha, result, counts },
    });
    if (result === 'mismatch') events = await createNotices(tx, listeners, noticeText(s!), o.adminId);
    return s!;
  });
  await publishNotices(ctx.bus, events);
  return statement;
}

function itemRow(statementId: number, f: Finding): typeof items.$inferInsert {
  return {
    statementId, kind: f.kind, direction: f.direction, lineNo: f.line?.line ?? null,
    operatorRef: f.line?.operatorRef ?? f.ours?.carrierRef ?? null, reference: f.line?.reference ?? f.ours?.serial ?? null,
    rechargeId: f.ours?.direction === 'collect' ? f.ours.id : null, withdrawalId: f.ours?.direction === 'disburse' ? f.ours.id : null,
    ourAmount: f.ours?.amount ?? null, ourStatus: f.ours?.status ?? null,
    theirAmount: f.line?.amount ?? null, theirStatus: f.line?.status ?? null, theirTime: f.line?.time ?? null,
    reconcile: f.reconcile, theirLine: f.line?.raw ?? null,
  };
}

// ------------------------------------------------------------------------------------------------
// Fetching from the provider's portal.

/**
 * Downloads a day's statement from the provider that carries the pay type. None of the three providers
 * documents a statement download in its API: only the built-in sandbox's "portal" offers one (the account
 * has no base URL); a production account is refused 409 (its statement is uploaded from the portal).
 */
export async function fetchStatementFile(db: Db, payType: PayType, day: string): Promise<{ provider: ProviderId; fileName: string; text: string }> {
  const provider = (await providerOf(db))[payType];
  const [acct] = await db.select({ baseUrl: paymentProviders.baseUrl }).from(paymentProviders).where(eq(paymentProviders.provider, provider));
  if (acct?.baseUrl) throw new AppError(409, 'CONFLICT', {}, [{ field: 'provider', message: `${PROVIDERS[provider].name} offers no statement download: upload the file from its portal` }]);
  const server = paymentsOf(db).sandboxServer();
  const res = await inProcessFetch(server, SANDBOX_ORIGIN)(`${SANDBOX_ORIGIN}${portalPath(provider, payType, day)}`);
  if (res.status !== 200) throw new AppError(503, 'OPERATOR_UNAVAILABLE');
  return { provider, fileName: STATEMENT_FORMATS[provider].fileName(payType, day), text: await res.text() };
}

/** Fetches and imports a day's statement (the console's "fetch now", and the daily job). */
export async function fetchAndImport(ctx: Pick<AppContext, 'db' | 'bus'>, o: { payType: PayType; day: string; adminId: number | null; req: FastifyRequest | null }) {
  const file = await fetchStatementFile(ctx.db, o.payType, o.day);
  return importStatement(ctx, { ...o, provider: file.provider, source: 'fetched', fileName: file.fileName, text: file.text });
}

/**
 * The daily job: yesterday's statement of every pay type whose provider offers a download (the built-in
 * sandbox), fetched and reconciled once (a day already fetched is left alone; an admin may fetch again).
 */
export async function reconcileYesterday(ctx: Pick<AppContext, 'db' | 'bus'>, now = Date.now(), log: (msg: string, extra?: object) => void = () => {}) {
  const day = addDays(localDay(now), -1);
  const done: StatementRecord[] = [];
  const routing = await providerOf(ctx.db);
  const live = new Set((await ctx.db.select({ p: paymentProviders.provider, url: paymentProviders.baseUrl }).from(paymentProviders)).filter((r) => !!r.url).map((r) => r.p));
  for (const payType of PAY_TYPES) {
    if (live.has(routing[payType])) continue;
    const [had] = await ctx.db
      .select({ id: statements.id })
      .from(statements)
      .where(and(eq(statements.payType, payType), eq(statements.day, day), eq(statements.source, 'fetched')))
      .orderBy(desc(statements.id))
      .limit(1);
    if (had) continue;
    try {
      done.push(await fetchAndImport(ctx, { payType, day, adminId: null, req: null }));
    } catch (err) {
      log('daily statement failed', { payType, day, err: String(err) });
    }
  }
  return done;
}
