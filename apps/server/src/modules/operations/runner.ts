/**
 * The script runner. A run is a row of `script_runs` (the durable job): the request writes it for its
 * target process (queued, or awaiting approval when the script is dangerous), and only the target
 * process claims it (one conditional UPDATE … FOR UPDATE SKIP LOCKED), when the bus tells it a run was
 * queued for it, after each beat, and every 2 s. Output lines are redacted and stored one by one
 * (`script_run_output`, seq 1, 2, …) so the browser reads them while the run goes on (`after=seq`).
 * A run whose target stopped or stopped beating is marked interrupted by any live process's beat: a
 * script is never started twice behind the operator's back.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { LOG_TYPE } from '@dau/domain';
import type { Database } from '../../platform/db.js';
import type { AppContext } from '../../platform/context.js';
import { writeAudit } from '../../platform/audit.js';
import { scriptRunOutput, scriptRuns, serverProcesses } from './schema.js';
import { SCRIPTS } from './scripts/index.js';
import { knownSecrets, redactText, redactValue } from './redact.js';
import { DOWN_AFTER_SECONDS } from './servers.js';

/** Bus channel: `{ target }` — a run was queued for that process. */
export const SCRIPT_QUEUED = 'operations.script-queued';
export const FINAL_STATES = ['succeeded', 'failed', 'interrupted'] as const;

export class ScriptRunner {
  private timer: NodeJS.Timeout | null = null;
  private busy: Promise<void> | null = null;
  private stopped = false;
  /** Runs executing now (0 or 1: a process runs its scripts one at a time). */
  running = 0;

  constructor(
    private serverId: string,
    private database: Database,
    private app: AppContext,
    private log: (msg: string, err?: unknown) => void = () => {},
  ) {}

  start(pollMs = 2000) {
    this.app.bus.subscribe(SCRIPT_QUEUED, (p) => {
      if ((p as { target?: string })?.target === this.serverId) void this.poll();
    });
    this.timer = setInterval(() => void this.poll(), pollMs);
    this.timer.unref();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.busy;
  }

  /** Takes and runs this process's queued runs, one after the other. */
  poll(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.busy ??= (async () => {
      try {
        for (;;) {
          const { rows } = await this.database.query(
            `UPDATE script_runs SET status = 'running', started_at = now()
              WHERE id = (SELECT id FROM script_runs WHERE target = $1 AND status = 'queued' ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
              RETURNING id`,
            [this.serverId],
          );
          const id = rows[0]?.id;
          if (id == null || this.stopped) break;
          await this.execute(Number(id));
        }
      } catch (err) {
        this.log('script runner: poll failed', err);
      } finally {
        this.busy = null;
      }
    })();
    return this.busy;
  }

  private async execute(id: number) {
    const { db } = this.database;
    const [run] = await db.select().from(scriptRuns).where(eq(scriptRuns.id, id));
    if (!run) return;
    const secrets = knownSecrets();
    let seq = 0;
    const out = async (line: string) => {
      seq++;
      await db.insert(scriptRunOutput).values({ runId: id, seq, line: redactText(String(line).replace(/\u0000/g, ''), secrets).slice(0, 4000) });
    };
    const def = SCRIPTS.get(run.script);
    let status: 'succeeded' | 'failed' = 'failed';
    let result: Record<string, unknown> | null = null;
    let error: string | null = null;
    this.running++;
    try {
      if (!def || def.version !== run.version) throw new Error(`script ${run.script} v${run.version} is not known to this server (version ${VERSION_OF(run.script)})`);
      const args = def.args.parse(run.args);
      await out(`${def.name} v${def.version}${run.dryRun ? ' (dry run)' : ''} on ${this.serverId}`);
      result = redactValue(await def.run({ db, database: this.database, app: this.app, dryRun: run.dryRun, out }, args), secrets);
      status = 'succeeded';
      await out('done');
    } catch (err) {
      error = redactText(err instanceof Error ? err.message : String(err), secrets).slice(0, 2000);
      await out(`failed: ${error}`).catch(() => {});
    } finally {
      this.running--;
    }
    await db.update(scriptRuns).set({ status, result, error, finishedAt: new Date() }).where(eq(scriptRuns.id, id));
    await writeAudit(db, null, {
      type: LOG_TYPE.ordinary,
      content: `script run #${id} ${run.script} v${run.version}${run.dryRun ? ' (dry run)' : ''} → ${status}`,
      action: 'script.run',
      adminId: run.requestedBy,
      account: null,
      before: { script: run.script, version: run.version, args: run.args, dry_run: run.dryRun, target: run.target, approved_by: run.approvedBy },
      after: { status, result, error },
    }).catch((err) => this.log('script runner: audit failed', err));
  }
}

const VERSION_OF = (name: string) => SCRIPTS.get(name)?.version ?? 'none';

/** Runs not finished whose target stopped or has not beaten for 30 s: interrupted (any live process does this on its beat). */
export async function interruptOrphans(database: Database): Promise<number> {
  const { db } = database;
  const dead = db
    .select({ id: serverProcesses.id })
    .from(serverProcesses)
    .where(sql`${serverProcesses.stoppedAt} IS NOT NULL OR ${serverProcesses.lastBeatAt} < now() - make_interval(secs => ${DOWN_AFTER_SECONDS})`);
  const rows = await db
    .update(scriptRuns)
    .set({ status: 'interrupted', finishedAt: new Date(), error: 'the target server stopped before the run finished' })
    .where(and(inArray(scriptRuns.status, ['awaiting_approval', 'queued', 'running']), inArray(scriptRuns.target, dead)))
    .returning({ id: scriptRuns.id });
  return rows.length;
}
