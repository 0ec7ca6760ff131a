import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { SOCKET_CLOSE_NO_RECONNECT, normalizeLocale } from '@dau/domain';
import { authenticate } from './access.js';
import { openMessage, sealMessage } from './crypto.js';
import type { AppContext } from './context.js';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { admins, sessions } from './schema.js';

/** Push types (spec §4): 1 ignored, 2 reload the page, 3 close; 10 a notice; others go to the current screen. */
/** 20: events whose odds or state changed (`content.event_ids`), for open odds views; 21: new orders (the bet ticker refetches). */
export const PUSH = { ignore: 1, reload: 2, close: 3, notice: 10, odds: 20, orders: 21 } as const;
export const PUSH_TO_ADMINS = 'push.admins';
/**
 * Pushes to bettors' sessions (force-refresh, spec §6). The bettor-facing app's socket subscribes to this
 * channel; the console's server only publishes it.
 */
export const PUSH_TO_BETTORS = 'push.bettors';

export interface PushMessage {
  status: boolean;
  type: number;
  message?: string;
  content?: unknown;
  count?: number;
}

/**
 * A bus channel whose messages a module delivers to sockets (a new notice, a revoked session): modules
 * declare theirs and app.ts hands them to the hub, so the socket layer knows no module.
 */
export interface SocketChannel {
  channel: string;
  deliver(hub: SocketHub, payload: unknown): void;
}

interface Client {
  ws: WebSocket;
  sessionId?: string;
  adminId?: number;
  key?: string;
  locale: string;
  lastSeen: number;
}

const SILENT_MS = 15_000;

/**
 * The console's live channel at /ws (docs/architecture.md "Realtime"). A client proves its session every 5 s with an
 * AES-GCM envelope under the per-session key handed out at sign-in; unauthenticated or silent clients
 * are dropped. Notices, pushes and revocations arrive through the bus, so every process delivers its own:
 * pushes on the hub's own channel, the rest on the channels modules register (`SocketChannel`).
 */
export class SocketHub {
  private clients = new Set<Client>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private ctx: AppContext,
    channels: readonly SocketChannel[],
  ) {
    for (const ch of channels) ctx.bus.subscribe(ch.channel, (p) => ch.deliver(this, p));
    ctx.bus.subscribe(PUSH_TO_ADMINS, (p) => {
      const e = p as { adminIds: number[] | 'all'; message: PushMessage };
      for (const c of this.clients) {
        if (c.adminId && (e.adminIds === 'all' || e.adminIds.includes(c.adminId))) this.send(c, e.message);
      }
    });
  }

  get size() {
    return this.clients.size;
  }

  private send(c: Client, msg: PushMessage) {
    if (c.ws.readyState !== c.ws.OPEN) return;
    c.ws.send(JSON.stringify(c.key ? sealMessage(c.key, msg) : msg));
  }

  private close(c: Client, reason: string) {
    this.send(c, { status: true, type: PUSH.close, message: reason });
    c.ws.close(SOCKET_CLOSE_NO_RECONNECT, reason);
    this.drop(c);
  }

  toAdmin(adminId: number, msg: PushMessage) {
    for (const c of this.clients) if (c.adminId === adminId) this.send(c, msg);
  }

  /** Closes (without reconnect) the sockets signed in with one of these sessions. */
  closeSessions(sessionIds: readonly string[], reason: string) {
    for (const c of this.clients) {
      if (c.sessionId && sessionIds.includes(c.sessionId)) this.close(c, reason);
    }
  }

  install(app: FastifyInstance) {
    app.get('/ws', { websocket: true, config: { access: { public: true } } }, (socket) => {
      const c: Client = { ws: socket, locale: 'en-US', lastSeen: Date.now() };
      this.clients.add(c);
      socket.on('message', (raw) => void this.onMessage(c, String(raw)));
      socket.on('close', () => this.drop(c));
      socket.on('error', () => this.drop(c));
    });
    this.timer = setInterval(() => {
      const now = Date.now();
      for (const c of this.clients) {
        if (now - c.lastSeen > SILENT_MS) {
          c.ws.terminate();
          this.drop(c);
        }
      }
    }, 5_000);
    this.timer.unref();
    app.addHook('onClose', async () => {
      if (this.timer) clearInterval(this.timer);
      for (const c of this.clients) c.ws.close(1001, 'server stopping');
      this.clients.clear();
    });
  }

  private async onMessage(c: Client, raw: string) {
    let env: { type?: unknown; kid?: unknown; iv?: unknown; data?: unknown };
    try {
      env = JSON.parse(raw) as typeof env;
    } catch {
      return this.send(c, { status: false, type: 0, message: 'bad message' });
    }
    if (env.type === 'ping' && !env.kid) {
      c.lastSeen = Date.now();
      return;
    }
    if (typeof env.kid !== 'string' || typeof env.iv !== 'string' || typeof env.data !== 'string') {
      return this.send(c, { status: false, type: 0, message: 'bad message' });
    }
    const [row] = await this.ctx.db
      .select({ key: sessions.wsKey, adminId: sessions.adminId })
      .from(sessions)
      .where(and(eq(sessions.id, env.kid), isNull(sessions.revokedAt), sql`${sessions.absoluteExpiresAt} > now()`));
    if (!row) return this.reject(c);
    let msg: { type?: number; token?: string; locale?: string };
    try {
      msg = openMessage(row.key, { iv: env.iv, data: env.data }) as typeof msg;
    } catch {
      return this.reject(c);
    }
    const auth = msg.token ? await authenticate(this.ctx.db, msg.token) : null;
    if (!auth || auth.sessionId !== env.kid) return this.reject(c);
    const first = !c.sessionId;
    c.sessionId = auth.sessionId;
    c.adminId = auth.admin.id;
    c.key = row.key;
    c.locale = normalizeLocale(msg.locale ?? '');
    c.lastSeen = Date.now();
    if (first) {
      this.send(c, { status: true, type: PUSH.ignore, content: { online: true } });
      await this.setOnline(auth.admin.id, 2);
    }
  }

  /** Online status (spec §3 Administrator) follows the live console: online while one socket is signed in. */
  private async setOnline(adminId: number, status: 1 | 2) {
    try {
      await this.ctx.db.update(admins).set({ onlineStatus: status, onlineUpdatedAt: new Date() }).where(eq(admins.id, adminId));
    } catch {
      /* the database is closing */
    }
  }

  private drop(c: Client) {
    if (!this.clients.delete(c) || !c.adminId) return;
    const still = [...this.clients].some((x) => x.adminId === c.adminId);
    if (!still) void this.setOnline(c.adminId, 1);
  }

  private reject(c: Client) {
    c.ws.send(JSON.stringify({ status: false, type: PUSH.close, message: 'UNAUTHORIZED' }));
    c.ws.close(SOCKET_CLOSE_NO_RECONNECT, 'unauthorized');
    this.clients.delete(c);
  }
}
