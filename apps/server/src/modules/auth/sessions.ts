import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { sessions } from '../../platform/schema.js';
import { subscriberConfig } from '../system/index.js';
import { randomToken, sha256 } from '../../platform/crypto.js';
import type { Executor } from '../../platform/db.js';
import type { SocketChannel } from '../../platform/socket.js';
import { SESSION_REVOKED } from '../../platform/access.js';

/** The platform's channel (the session cache listens to it too). */
export { SESSION_REVOKED };

/** A revoked session's sockets are closed, in every process (app.ts registers it with the hub). */
export const revokedSessionSocketChannel: SocketChannel = {
  channel: SESSION_REVOKED,
  deliver(hub, payload) {
    hub.closeSessions((payload as { sessionIds: string[] }).sessionIds, 'session ended');
  },
};

export interface NewSession {
  id: string;
  token: string;
  wsKey: string;
  expiresAt: Date;
}

export async function sessionLimits(ex: Executor) {
  const [cfg] = await ex
    .select({ idle: subscriberConfig.sessionIdleMinutes, abs: subscriberConfig.sessionAbsoluteHours })
    .from(subscriberConfig)
    .where(eq(subscriberConfig.id, 1));
  return { idleMs: (cfg?.idle ?? 120) * 60_000, absoluteMs: (cfg?.abs ?? 12) * 3_600_000 };
}

/** Opens a session: the token is returned once and only its SHA-256 is stored. */
export async function createSession(ex: Executor, adminId: number, meta: { ip?: string; userAgent?: string }): Promise<NewSession> {
  const { idleMs, absoluteMs } = await sessionLimits(ex);
  const now = Date.now();
  const s: NewSession = {
    id: randomToken(12),
    token: randomToken(32),
    wsKey: crypto.randomBytes(32).toString('base64'),
    expiresAt: new Date(now + absoluteMs),
  };
  await ex.insert(sessions).values({
    id: s.id,
    tokenHash: sha256(s.token),
    adminId,
    wsKey: s.wsKey,
    ip: meta.ip ?? null,
    userAgent: meta.userAgent?.slice(0, 500) ?? null,
    createdAt: new Date(now),
    lastSeenAt: new Date(now),
    idleExpiresAt: new Date(Math.min(now + idleMs, now + absoluteMs)),
    absoluteExpiresAt: s.expiresAt,
  });
  return s;
}

export const tokenHash = sha256;
