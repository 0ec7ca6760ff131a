/**
 * Every server process registers itself in `server_processes` and beats every 5 s from a timer (not a
 * queued job: a beat must not wait behind work): memory, event-loop delay p99 over the last window
 * (perf_hooks), jobs running, the database pool, the leaderships it holds. A process with no beat for
 * 30 s is down; a graceful stop marks it stopped; rows of processes gone for a week are pruned.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../platform/db.js';
import type { Jobs } from '../../platform/jobs.js';
import { heldLeaderships } from '../../platform/leader.js';
import { ROOT } from '../../platform/paths.js';
import { serverProcesses } from './schema.js';

export const BEAT_SECONDS = 5;
export const DOWN_AFTER_SECONDS = 30;
export const PRUNE_AFTER_DAYS = 7;


/** The package version, with the git commit when the server runs from a checkout (DAU_VERSION overrides). */
export const VERSION = (() => {
  if (process.env.DAU_VERSION) return process.env.DAU_VERSION;
  let version = '0.0.0';
  try {
    version = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version ?? version;
  } catch {
    /* no package file next to the sources */
  }
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 }).toString().trim();
    if (/^[0-9a-f]{4,40}$/.test(sha)) version += `+${sha}`;
  } catch {
    /* not a git checkout */
  }
  return version;
})();

export type ServerState = 'up' | 'down' | 'stopped';

/** up, down (no beat for 30 s) or stopped (graceful stop), as SQL for lists and checks. */
export const stateSql = sql<ServerState>`CASE WHEN ${serverProcesses.stoppedAt} IS NOT NULL THEN 'stopped'
  WHEN ${serverProcesses.lastBeatAt} < now() - make_interval(secs => ${DOWN_AFTER_SECONDS}) THEN 'down' ELSE 'up' END`;

export class ServerBeat {
  readonly id = crypto.randomUUID();
  private timer: NodeJS.Timeout | null = null;
  private loop: IntervalHistogram;
  private readonly startedAt = new Date();
  private beating: Promise<void> | null = null;
  /** Called after each beat (the script runner looks for its runs). */
  onBeat: (() => Promise<void>) | null = null;

  constructor(
    private database: Database,
    private jobs: Jobs,
    private opts: { beatMs?: number; log?: (msg: string, err?: unknown) => void; extraRunning?: () => number } = {},
  ) {
    this.loop = monitorEventLoopDelay({ resolution: 20 });
  }

  private figures() {
    const mem = process.memoryUsage();
    const pool = this.database.poolStats();
    const p99 = this.loop.count ? this.loop.percentile(99) / 1e6 : 0;
    return {
      lastBeatAt: new Date(),
      leaderships: heldLeaderships(this.database),
      jobsRunning: this.jobs.running + (this.opts.extraRunning?.() ?? 0),
      rssBytes: mem.rss,
      heapUsedBytes: mem.heapUsed,
      heapTotalBytes: mem.heapTotal,
      loopDelayP99Ms: Math.round(p99 * 100) / 100,
      poolInUse: pool.inUse,
      poolTotal: pool.total,
    };
  }

  async start() {
    this.loop.enable();
    await this.database.db.insert(serverProcesses).values({
      id: this.id, host: os.hostname(), pid: process.pid, version: VERSION, databaseKind: this.database.kind, startedAt: this.startedAt, ...this.figures(),
    });
    this.timer = setInterval(() => void this.beat(), this.opts.beatMs ?? BEAT_SECONDS * 1000);
    this.timer.unref();
  }

  /** One beat (the timer's; tests call it to beat at once). */
  beat(): Promise<void> {
    this.beating ??= (async () => {
      try {
        const figures = this.figures();
        this.loop.reset();
        await this.database.db.update(serverProcesses).set(figures).where(eq(serverProcesses.id, this.id));
        await this.database.db
          .delete(serverProcesses)
          .where(sql`${serverProcesses.lastBeatAt} < now() - make_interval(days => ${PRUNE_AFTER_DAYS})`);
        await this.onBeat?.();
      } catch (err) {
        this.opts.log?.('server beat failed', err);
      } finally {
        this.beating = null;
      }
    })();
    return this.beating;
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.loop.disable();
    await this.beating;
    await this.database.db.update(serverProcesses).set({ stoppedAt: new Date() }).where(eq(serverProcesses.id, this.id)).catch(() => {});
  }
}
