import type { FastifyInstance } from 'fastify';
import { ipMatches, LOG_TYPE } from '@dau/domain';
import { ipBlacklist } from './schema.js';
import type { Db } from './db.js';
import { AppError } from './errors.js';
import { writeAudit } from './audit.js';

const TTL_MS = 5_000;

/** The IP blacklist, enforced on every request. Cached for a few seconds; a change here invalidates at once. */
export class IpBlocklist {
  private entries: string[] = [];
  private loadedAt = 0;
  constructor(private db: Db) {}

  invalidate() {
    this.loadedAt = 0;
  }

  async blocked(ip: string): Promise<boolean> {
    if (Date.now() - this.loadedAt > TTL_MS) {
      const rows = await this.db.select({ ip: ipBlacklist.ip }).from(ipBlacklist);
      this.entries = rows.map((r) => r.ip);
      this.loadedAt = Date.now();
    }
    return this.entries.some((e) => ipMatches(ip, e));
  }

  install(app: FastifyInstance) {
    app.addHook('onRequest', async (req) => {
      if (req.url.startsWith('/api/health')) return;
      if (await this.blocked(req.ip)) {
        await writeAudit(this.db, req, {
          type: LOG_TYPE.ip_blacklist,
          content: `Blocked request from blacklisted IP ${req.ip}: ${req.method} ${req.url}`.slice(0, 500),
          status: 403,
        }).catch(() => {});
        throw new AppError(403, 'IP_BLACKLISTED');
      }
    });
  }
}
