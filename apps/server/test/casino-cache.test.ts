/**
 * The wallet's per-process cache of providers, games and settings: concurrent calls share one read, a
 * read is kept for a few seconds, a failed read is not kept, an edit (invalidate) reads again.
 */
import { describe, expect, it } from 'vitest';
import type { Executor } from '../src/platform/db';
import { WalletCache } from '../src/modules/casino/service';

/** An executor whose select().from().where() answers `rows` (or fails) and counts the reads. */
function fakeDb(answer: () => Promise<unknown[]>) {
  const counter = { reads: 0 };
  const ex = {
    select: () => ({ from: () => ({ where: () => (counter.reads++, answer()) }) }),
  } as unknown as Executor;
  return { ex, counter };
}

describe('WalletCache', () => {
  it('answers 200 concurrent callers with one read, then from memory', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { ex, counter } = fakeDb(async () => {
      await gate;
      return [{ id: 1, casinoEnabled: true, maxBet: 0, maxWin: 0 }];
    });
    const cache = new WalletCache();
    const all = Array.from({ length: 200 }, () => cache.settingsRow(ex));
    release();
    const rows = await Promise.all(all);
    expect(counter.reads).toBe(1);
    expect(new Set(rows).size).toBe(1);
    await cache.settingsRow(ex);
    await cache.game(ex, 1, 'g');
    await Promise.all([cache.game(ex, 1, 'g'), cache.game(ex, 1, 'h')]);
    expect(counter.reads).toBe(3);
    cache.invalidate();
    await cache.settingsRow(ex);
    expect(counter.reads).toBe(4);
  });

  it('does not keep a failed read', async () => {
    let fail = true;
    const { ex, counter } = fakeDb(async () => {
      if (fail) throw new Error('connection lost');
      return [{ id: 1, code: 'sandbox', secret: '' }];
    });
    const cache = new WalletCache();
    await expect(cache.provider(ex, 'sandbox')).rejects.toThrow('connection lost');
    fail = false;
    const p = await cache.provider(ex, 'sandbox');
    expect(p.row).toMatchObject({ code: 'sandbox' });
    expect(counter.reads).toBe(2);
  });
});
