/**
 * The odds feed adapter (issue 4): message handling rules of FeedEngine on the in-memory store (the
 * scenarios of ./feed-scenarios.ts, also run on PostgreSQL by feed-store.test.ts), the margin
 * arithmetic, and the sandbox provider's determinism and settlements. No database.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EVENT_STATUS } from '@dau/domain';
import { FeedEngine, InMemoryFeedStore, applyMargin } from '../src/modules/feed/engine';
import { feedMessageSchema, type FeedMessageInput } from '../src/modules/feed/messages';
import { SandboxProvider, quarter } from '../src/modules/feed/simulator';
import { feedEngineScenarios, T0 } from './feed-scenarios';

feedEngineScenarios('in-memory store', async () => {
  const store = new InMemoryFeedStore();
  return {
    store,
    market: async (eventId, typeId, specifiers) => store.market(eventId, typeId, specifiers),
    markets: async (eventId) => [...(store.markets.get(eventId)?.values() ?? [])].sort((a, b) => a.key.localeCompare(b.key)),
    clearSeen: async () => store.seen.clear(),
  };
});

describe('margin arithmetic', () => {
  it.each([
    ['2.10', 500, '2.00'],
    ['2.00', 0, '2.00'],
    ['1.85', 450, '1.77'], // 1.85 / 1.045 = 1.7703…
    ['3.333', 1000, '3.03'], // 3.333 / 1.1 = 3.03
    ['1.05', 500, '1.01'], // 1.0(0) → floor at 1.01
    ['1.01', 200, '1.01'],
    ['100', 250, '97.56'], // 97.5609…
    ['1.5', -300, '1.50'], // a negative margin counts as 0
  ])('applyMargin(%s, %i bps) = %s', (original, bps, expected) => {
    expect(applyMargin(original, bps)).toBe(expected);
  });

  it('price with margin is <= original and >= 1.01, with at most 2 decimals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 101, max: 100_000 }), fc.integer({ min: 0, max: 5000 }), (hundredths, bps) => {
        const original = (hundredths / 100).toFixed(2);
        const p = applyMargin(original, bps);
        expect(p).toMatch(/^\d+\.\d{2}$/);
        expect(Number(p)).toBeGreaterThanOrEqual(1.01);
        expect(Math.round(Number(p) * 100)).toBeLessThanOrEqual(hundredths);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('sandbox provider', () => {
  const run = (seed: number) => {
    const out: FeedMessageInput[] = [];
    const sim = new SandboxProvider({ seed, startTime: T0, emit: (m) => out.push(m), footballMatches: 30, basketballMatches: 8, days: 2, cancelMatchRate: 0.15, cancelWindowRate: 0.5, rollbackRate: 0.3, downRate: 0.003 });
    sim.run(3 * 24 * 60);
    return out;
  };

  it('is deterministic for a seed (and differs for another)', () => {
    const a = run(7);
    expect(run(7)).toEqual(a);
    expect(run(8)).not.toEqual(a);
  });

  it('sends valid messages that the engine applies without errors, covering the whole lifecycle', async () => {
    const msgs = run(7);
    for (const m of msgs) expect(feedMessageSchema.safeParse(m).success).toBe(true);
    // The rarer events (a cancel rolled back, a producer outage) over a few seeds' three days.
    const types = new Set([msgs, run(8), run(9)].flat().map((m) => m.type));
    for (const t of ['fixture_change', 'odds_change', 'bet_stop', 'bet_settlement', 'bet_cancel', 'rollback_bet_settlement', 'rollback_bet_cancel', 'alive', 'producer_down', 'producer_up'])
      expect(types.has(t as FeedMessageInput['type'])).toBe(true);
    const statuses = new Set(msgs.flatMap((m) => (m.type === 'fixture_change' ? [m.status] : [])));
    expect([...statuses]).toEqual(expect.arrayContaining([EVENT_STATUS.not_started, EVENT_STATUS.in_progress, EVENT_STATUS.ended, EVENT_STATUS.cancelled]));
    const engine = new FeedEngine(new InMemoryFeedStore(), { margin: () => 500, now: () => T0 });
    for (const m of msgs) expect((await engine.ingest(m)).ok).toBe(true);
    expect(engine.stats().every((s) => s.errors.dataError === 0 && s.errors.unknownType === 0)).toBe(true);
  });

  it('settles quarter lines half won / half lost on a draw and voids a cancelled match', () => {
    const msgs = run(7);
    const outcomes = msgs.flatMap((m) =>
      m.type === 'bet_settlement' ? m.markets.flatMap((k) => k.outcomes.map((o) => ({ event: m.event_id, spec: k.specifiers ?? '', id: o.id, r: o.result, v: o.void_factor ?? 0 }))) : [],
    );
    // -0.25 home on a draw: half lost; +0.25 home on a draw: half won.
    expect(outcomes).toContainEqual(expect.objectContaining({ spec: 'hcp=-0.25', id: '1714', r: 0, v: 0.5 }));
    expect(outcomes).toContainEqual(expect.objectContaining({ spec: 'hcp=0.25', id: '1714', r: 1, v: 0.5 }));
    const cancelled = new Set(msgs.flatMap((m) => (m.type === 'fixture_change' && m.status === EVENT_STATUS.cancelled ? [m.event_id] : [])));
    expect(cancelled.size).toBeGreaterThan(0);
    for (const ev of cancelled) {
      const own = outcomes.filter((o) => o.event === ev);
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((o) => o.v === 1)).toBe(true);
    }
  });

  it('advances simulated time by real time x speed, with the injected start time', () => {
    const sim = new SandboxProvider({ seed: 1, startTime: T0, speed: 120, emit: () => {} });
    sim.start();
    sim.advance(1000); // 2 simulated minutes
    expect(sim.now).toBe(T0 + 2 * 60_000);
    sim.advance(250); // 30 s: not a whole minute yet
    expect(sim.now).toBe(T0 + 2 * 60_000);
    sim.advance(250);
    expect(sim.now).toBe(T0 + 3 * 60_000);
  });

  it('quarter-line rules', () => {
    expect(quarter(0, -0.25)).toEqual([
      { id: '1714', result: 0, void_factor: 0.5 },
      { id: '1715', result: 1, void_factor: 0.5 },
    ]);
    expect(quarter(0, 0.25)).toEqual([
      { id: '1714', result: 1, void_factor: 0.5 },
      { id: '1715', result: 0, void_factor: 0.5 },
    ]);
    expect(quarter(1, -0.25)[0]).toEqual({ id: '1714', result: 1, void_factor: 0 });
    expect(quarter(-1, 0.25)[0]).toEqual({ id: '1714', result: 0, void_factor: 0 });
  });
});
