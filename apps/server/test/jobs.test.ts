import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Jobs } from '../src/platform/jobs.js';
import { freshDatabase } from './helpers.js';

/**
 * The durable job queue (platform/jobs.ts) on the file's database (PGlite, and PostgreSQL in the PG pass):
 * a job enqueued in a transaction exists exactly when the transaction commits; a failing job is retried;
 * a debounced job queued while its slot is taken lands in the next slot instead of being dropped.
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
});
