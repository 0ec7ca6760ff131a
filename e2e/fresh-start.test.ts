import { describe, expect, test } from 'vitest';
import { screenshot, signIn, useE2e } from './support/browser';
import { ADMIN_ACCOUNT, ADMIN_PASSWORD, expectStatus } from './support/server';
import { settled, until } from './support/ui';

/**
 * What a newcomer sees (issue 23): `npm start` on a fresh machine — demo data, the simulator and the
 * sandbox odds feed on — and the console left open. A fresh install used to be dead 20 s after its start:
 * the sandbox said `alive` every 10 minutes while the engine takes 20 s of silence as a producer down, so
 * both producers went down, every market was suspended and every bet refused.
 *
 * This waits on state, never on a clock: until each producer has said alive many times over (well past the
 * 20 s a silent producer has), and until the simulator's bettors have placed orders that the live ticker
 * shows; then every producer must be up (any simulated outage come back through recovery).
 */
const e2e = useE2e({ server: { demo: true, simulator: true } });

type Producer = { producer: number; alive: boolean; downs: number; recoveries: number; messages: Record<string, number> };

describe('a fresh install with the simulator on', () => {
  test('producers stay up and bets arrive: the receiving statistics and the live ticker say so', async () => {
    const token = await e2e.server.loginApi(ADMIN_ACCOUNT, ADMIN_PASSWORD);
    const producers = async () => expectStatus(await e2e.server.api('GET', '/sports/receiving_statistics', undefined, token), 200, 'receiving statistics').items as Producer[];

    const page = await e2e.newPage();
    await signIn(page, ADMIN_ACCOUNT, ADMIN_PASSWORD);

    // Bets arriving: the landing page's ticker shows orders placed by the simulator's bettors.
    await page.goto('/#/customer/today_statistics');
    const ticker = page.getByTestId('bet-ticker');
    await ticker.waitFor({ state: 'visible' });
    const tickerRows = ticker.locator('[data-testid^="ticker-order-"]');
    await until(async () => (await tickerRows.count()) >= 3, 'three orders of the simulated bettors on the live ticker');
    await screenshot(page, 'fresh-start-ticker');

    // Alive all along: each producer said alive at least 12 times (a minute of heartbeats, three times the
    // silence that takes a producer down), and is up, any outage recovered.
    const upAfterAMinute = await until(async () => {
      const list = await producers();
      const ok = list.length >= 2 && list.every((p) => (p.messages.alive ?? 0) >= 12 && p.alive && p.recoveries >= p.downs);
      return ok ? list : null;
    }, 'both producers up after a minute of heartbeats');
    expect(upAfterAMinute.map((p) => p.producer).sort()).toEqual([1, 3]);

    // The console says the same: the receiving statistics screen shows each producer alive.
    await page.goto('/#/customer/receiving_statistics');
    await settled(page);
    for (const p of upAfterAMinute) {
      const badge = page.getByTestId(`producer-alive-${p.producer}`);
      await until(async () => (await badge.getAttribute('data-alive')) === 'true', `producer ${p.producer} shown alive`);
    }
    await screenshot(page, 'fresh-start-producers');

    // And bets are taken: orders keep arriving while the producers are up (markets open, not suspended).
    const before = expectStatus(await e2e.server.api('GET', '/betting/ticker?limit=1', undefined, token), 200, 'ticker').items[0]?.id ?? 0;
    await until(async () => {
      const fresh = expectStatus(await e2e.server.api('GET', `/betting/ticker?after_id=${before}`, undefined, token), 200, 'ticker').items as unknown[];
      return fresh.length >= 2;
    }, 'two more orders placed after the producers proved alive');
  });
});
