import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../src/platform/db.js';
import { Jobs } from '../src/platform/jobs.js';
import { freshDatabase } from './helpers.js';
import { killGroup } from './support/spawn.js';
import { ROOT, waitFor } from './support/processes.js';

/**
 * The durable job queue (platform/jobs.ts) on the file's database (PGlite, and PostgreSQL in the PG pass):
 * a job enqueued in a transaction exists exactly when the transaction commits; a failing job is retried;
 * a debounced job queued while its slot is taken lands in the next slot instead of being dropped; a job
 * whose process died runs again at once, never while its process lives (the expiry is an hour here: only
 * the liveness of its process can free it).
 */
describe('durable jobs', () => {
  let d: Awaited<ReturnType<typeof freshDatabase>>;
  let jobs: Jobs;
  const seen: string[] = [];
  let failuresLeft = 2;

  beforeAll(async () => {
    d = await freshDatabase();
    jobs = new Jobs(d, { pollSeconds: 0.5 });
    jobs.define<{ tag: string }>('test.record', async ({ tag }) => void seen.push(tag));
    jobs.define<{ tag: string }>(
      'test.flaky',
      async ({ tag }) => {
        if (failuresLeft-- > 0) throw new Error('not yet');
        seen.push(tag);
      },
      { retryLimit: 5, retryDelaySeconds: 1 },
    );
    await jobs.start();
  }, 120_000);
  afterAll(async () => {
    await jobs?.stop();
    await d?.dispose();
  });

  const rows = async (name: string) => (await d.query(`SELECT state, data, retry_count FROM pgboss.job WHERE name = $1 ORDER BY created_on`, [name])).rows;

  it('a job sent in a transaction that rolls back never exists; one that commits runs once', async () => {
    await expect(
      d.db.transaction(async (tx) => {
        await jobs.send(tx, 'test.record', { tag: 'rolled back' });
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    await d.db.transaction(async (tx) => {
      await jobs.send(tx, 'test.record', { tag: 'committed' });
    });
    await jobs.drain(['test.record']);
    expect(seen.filter((t) => t === 'committed' || t === 'rolled back')).toEqual(['committed']);
    expect((await rows('test.record')).map((r) => [r.state, r.data.tag])).toEqual([['completed', 'committed']]);
  });

  it('retries a failing job with back-off until it succeeds', async () => {
    await jobs.send(d.db, 'test.flaky', { tag: 'flaky' });
    await jobs.drain(['test.flaky']);
    expect(seen).toContain('flaky');
    expect((await rows('test.flaky')).map((r) => [r.state, r.retry_count])).toEqual([['completed', 2]]);
  });

  it('a debounced job whose slot is taken goes to the next slot', async () => {
    const opts = { singletonKey: 'slot', singletonSeconds: 60, nextSlot: true };
    const first = await jobs.send(d.db, 'test.record', { tag: 'slot 1' }, opts);
    const second = await jobs.send(d.db, 'test.record', { tag: 'slot 2' }, opts);
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(second).not.toBe(first);
  });

  const onPostgres = !!process.env.TEST_DATABASE_URL;

  it.runIf(onPostgres)('a job whose process was killed runs again within moments on a live process, never while its process lives', async () => {
    const tag = `hang-${Date.now()}`;
    let out = '';
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/test/support/job-process.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: d.url, DAU_JOB_TAG: tag },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (b) => (out += b));
    child.stderr!.on('data', (b) => (out += b));
    const gone = new Promise((r) => child.on('exit', r));
    let rescuer: Jobs | undefined;
    try {
      await waitFor('the other process holds the job', async () => out.includes(`took ${tag}`), { output: () => out });
      const key = Number(/key (\d+)/.exec(out)![1]);
      const job = async () => (await d.query(`SELECT j.id, j.state, j.retry_count, r.runner FROM pgboss.job j LEFT JOIN pgboss.job_runner r ON r.id = j.id WHERE j.name = 'test.hang' AND j.data->>'tag' = $1`, [tag])).rows[0];
      expect(await job()).toMatchObject({ state: 'active', runner: key });

      const ran: string[] = [];
      rescuer = new Jobs(d, { expireInSeconds: 3600, recoverSeconds: 0.5 });
      rescuer.define<{ tag: string }>('test.hang', async (data) => void ran.push(data.tag));
      await rescuer.start();
      // The other process lives: its job stays its own.
      expect(await rescuer.recover()).toBe(0);
      expect(await job()).toMatchObject({ state: 'active', runner: key });
      expect(ran).toEqual([]);

      killGroup(child, 'SIGKILL');
      await gone;
      await waitFor('the job ran again', async () => ran.includes(tag));
      await rescuer.drain(['test.hang']);
      expect(ran).toEqual([tag]);
      // Released once, by whichever live process looked first (this file's queue looks too).
      expect(rescuer.released + jobs.released).toBe(1);
      expect(await job()).toMatchObject({ state: 'completed', retry_count: 1, runner: null });
    } finally {
      killGroup(child, 'SIGKILL');
      await rescuer?.stop();
    }
  });

  it.runIf(!onPostgres)('jobs left active by a process that died run again when the next process opens the data folder', async () => {
    const before = await freshDatabase();
    const hung = new Jobs(before);
    let took!: () => void;
    const holding = new Promise<void>((r) => (took = r));
    hung.define('test.hang', async () => {
      took();
      await new Promise(() => {});
    });
    await hung.start();
    await hung.send(before.db, 'test.hang', { tag: 'left active' });
    await holding;
    // The data folder as a kill -9 leaves it: the job committed as active.
    const after = await openPglite(undefined, { from: await before.dump!() });
    const ran: string[] = [];
    const next = new Jobs(after);
    next.define<{ tag: string }>('test.hang', async (data) => void ran.push(data.tag));
    try {
      expect((await after.query(`SELECT state FROM pgboss.job WHERE name = 'test.hang'`)).rows).toEqual([{ state: 'active' }]);
      await next.start();
      await next.drain(['test.hang']);
      expect(ran).toEqual(['left active']);
      expect(next.released).toBe(1);
      expect((await after.query(`SELECT state, retry_count FROM pgboss.job WHERE name = 'test.hang'`)).rows).toEqual([{ state: 'completed', retry_count: 1 }]);
    } finally {
      await next.stop();
      await after.close();
      // The hung handler never ends: its queue stops after pg-boss's grace period, in the background.
      void hung.stop().finally(() => before.dispose());
    }
  });
});
