import os from 'node:os';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { logTypes, systemLogs } from './schema.js';
import type { Executor } from './db.js';
import { LOG_TYPE } from '@dau/domain';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the handler wrote its own audit row (with before and after values). */
    audited?: boolean;
  }
}

export interface AuditEntry {
  type: number;
  content: string;
  action?: string;
  before?: unknown;
  after?: unknown;
  adminId?: number | null;
  account?: string | null;
  status?: number;
}

const SERVER_IP = (() => {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return '127.0.0.1';
})();

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Log types that make the audit trail (who changed what, sign-ins, blacklist hits, passwords, balances):
 * always recorded. The others (technical errors: mail, SQL, radar feed, socket, front end) can be
 * switched off on the log type screen when they are noise.
 */
export const PROTECTED_LOG_TYPES: ReadonlySet<number> = new Set([
  LOG_TYPE.ordinary, LOG_TYPE.login, LOG_TYPE.ip_blacklist, LOG_TYPE.reset_password, LOG_TYPE.delete_user,
  LOG_TYPE.update_password, LOG_TYPE.new_user, LOG_TYPE.update_user_info, LOG_TYPE.update_balance,
]);

/** Which optional log types are switched off, read from `log_types` every few seconds. */
export class LogTypeSwitch {
  private disabled = new Set<number>();
  private loadedAt = 0;
  constructor(private db: Executor) {}
  invalidate() {
    this.loadedAt = 0;
  }
  async records(type: number): Promise<boolean> {
    if (PROTECTED_LOG_TYPES.has(type)) return true;
    if (Date.now() - this.loadedAt > 5_000) {
      const rows = await this.db.select({ id: logTypes.id, enabled: logTypes.enabled }).from(logTypes);
      this.disabled = new Set(rows.filter((r) => !r.enabled).map((r) => r.id));
      this.loadedAt = Date.now();
    }
    return !this.disabled.has(type);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    logTypeSwitch?: LogTypeSwitch;
  }
}
const SECRET_KEYS = /password|secret|token|google_code|key/i;

const LONE_SURROGATES = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/**
 * NUL characters (refused by PostgreSQL in text and JSON) shown as the visible ␀, and lone surrogates (not
 * valid text, refused by jsonb) as �, so a refused input still leaves its row.
 */
const visibleNul = (s: string) => (s.includes('\u0000') ? s.replace(/\u0000/g, '\u2400') : s).replace(LONE_SURROGATES, '\uFFFD');
/** Deeper than this, the trail keeps a mark instead of the value (an input nested thousands of levels deep). */
const AUDIT_DEPTH = 20;

/** Values written to the audit trail never carry secrets, nor NUL characters, nor invalid text, nor unbounded nesting. */
export function redact(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return visibleNul(v);
  if (depth >= AUDIT_DEPTH && v && typeof v === 'object') return '…';
  if (Array.isArray(v)) return v.map((x) => redact(x, depth + 1));
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) out[visibleNul(k)] = SECRET_KEYS.test(k) ? (val == null ? val : '***') : redact(val, depth + 1);
    return out;
  }
  return v;
}

/** Writes one audit row, in the caller's transaction when given one, so the change and its trail commit together. */
export async function writeAudit(ex: Executor, req: FastifyRequest | null, e: AuditEntry): Promise<void> {
  if (req?.server.logTypeSwitch && !(await req.server.logTypeSwitch.records(e.type))) {
    req.audited = true;
    return;
  }
  await ex.insert(systemLogs).values({
    type: e.type,
    content: visibleNul(e.content.slice(0, 2000)),
    action: visibleNul(e.action ?? (req ? `${req.method} ${req.routeOptions.url ?? req.url}` : '')) || null,
    method: req?.method ?? null,
    route: req?.routeOptions.url ?? null,
    status: e.status ?? null,
    adminId: e.adminId !== undefined ? e.adminId : (req?.auth?.admin.id ?? null),
    account: e.account != null ? visibleNul(e.account) : e.account === null ? null : (req?.auth?.admin.account ?? null),
    ip: req?.ip ?? null,
    serverIp: SERVER_IP,
    source: req ? 'api' : 'server',
    userAgent: req ? String(req.headers['user-agent'] ?? '').slice(0, 500) : null,
    before: e.before === undefined ? null : (redact(e.before) as object),
    after: e.after === undefined ? null : (redact(e.after) as object),
  });
  if (req) req.audited = true;
}

/**
 * The safety net: every mutating call and every refused call leaves a row, even when its handler did
 * not write one (validation failures, refusals, unexpected errors). Runs before the answer is sent.
 */
export function installAuditTrail(app: FastifyInstance, db: Executor) {
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.audited) return payload;
    const status = reply.statusCode;
    const refused = status === 401 || status === 403 || status === 429;
    if (!MUTATING.has(req.method) && !refused) return payload;
    if (req.url.startsWith('/api/health')) return payload;
    let body: unknown = undefined;
    if (MUTATING.has(req.method) && req.body && typeof req.body === 'object') body = req.body;
    let code = '';
    if (status >= 400 && typeof payload === 'string') {
      try {
        code = (JSON.parse(payload) as { code?: string }).code ?? '';
      } catch {
        /* not JSON */
      }
    }
    try {
      await writeAudit(db, req, {
        type: req.routeOptions.url === '/api/v1/auth/login' ? LOG_TYPE.login : LOG_TYPE.ordinary,
        content: `${req.method} ${req.routeOptions.url ?? req.url} → ${status}${code ? ` ${code}` : ''}`,
        status,
        after: body,
      });
    } catch (err) {
      req.log.error({ err }, 'audit write failed');
    }
    return payload;
  });
}
