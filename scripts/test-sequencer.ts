import { BaseSequencer, type TestSpecification } from 'vitest/node';
import path from 'node:path';

/**
 * The order files start in: the longest first, whatever their project (`npm test` runs every project in
 * one vitest run, one pool of workers), so that the workers finish together instead of one starting a
 * minute-long browser file when the other is nearly done. Vitest orders by the durations of the last run
 * on this machine when it has them; a fresh checkout (CI) has none, so these typical seconds (quiet 2-core
 * machine, two files side by side) stand in. A file missing here counts as `UNKNOWN_SECONDS` of its kind.
 */
const TYPICAL_SECONDS: Readonly<Record<string, number>> = {
  'e2e/accessibility.test.ts': 87,
  'e2e/csp.test.ts': 87,
  'e2e/fresh-start.test.ts': 66,
  'e2e/jackpot.test.ts': 55,
  'e2e/casino.test.ts': 50,
  'e2e/drawers.test.ts': 44,
  'e2e/console-defects.test.ts': 42,
  'e2e/betting.test.ts': 39,
  'e2e/money.test.ts': 35,
  'e2e/shell.test.ts': 34,
  'e2e/tron.test.ts': 32,
  'e2e/promotions.test.ts': 30,
  'e2e/system-screens.test.ts': 29,
  'e2e/push.test.ts': 26,
  'e2e/shop.test.ts': 25,
  'e2e/messaging.test.ts': 22,
  'e2e/sports.test.ts': 22,
  'e2e/operations.test.ts': 21,
  'e2e/sms.test.ts': 20,
  'e2e/login.test.ts': 15,
  'e2e/racing.test.ts': 14,
  'e2e/content.test.ts': 12,
  'apps/server/test/sms-crash.test.ts': 25,
  'apps/server/test/settlement-crash.test.ts': 32,
  'apps/server/test/jackpot-crash.test.ts': 32,
  'apps/server/test/payments-crash.test.ts': 25,
  'apps/server/test/betting.test.ts': 17,
  'apps/server/test/exports-crash.test.ts': 16,
  'apps/server/test/fuzz-openapi.test.ts': 16,
  'apps/server/test/sms.test.ts': 14,
  'apps/server/test/casino-sandbox.test.ts': 12,
  'apps/server/test/jackpot-settlement.test.ts': 10,
  'apps/server/test/payments.test.ts': 10,
  'apps/server/test/tron-crash.test.ts': 8,
  'apps/server/test/permission-matrix.test.ts': 8,
  'apps/server/test/tron-withdrawals.test.ts': 7,
  'apps/server/test/operations.test.ts': 7,
  'apps/server/test/feed-store.test.ts': 6,
  'apps/server/test/casino-crash.test.ts': 6,
  'apps/server/test/ownership-matrix.test.ts': 6,
  'apps/server/test/access-declaration.test.ts': 5,
  'apps/server/test/messaging.test.ts': 5,
  'apps/server/test/multi-process.test.ts': 5,
};
/** A browser file not listed above, and any other file. */
const UNKNOWN_SECONDS = { e2e: 30, other: 3 };

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const seconds = (f: TestSpecification) => {
      const file = path.relative(root, f.moduleId);
      const last = cache.getFileTestResults(`${f.project.name}:${file}`);
      return last ? last.duration / 1000 : (TYPICAL_SECONDS[file] ?? (file.startsWith('e2e/') ? UNKNOWN_SECONDS.e2e : UNKNOWN_SECONDS.other));
    };
    // Vitest's own order (groups, then projects), kept only between groups (`sequence.groupOrder`):
    // within a group every project's files share the pool, longest first.
    const base = await super.sort(files);
    const rank = new Map(base.map((f, i) => [f, i]));
    return [...base].sort((a, b) => {
      const group = a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder;
      if (group !== 0) return group;
      return seconds(b) - seconds(a) || rank.get(a)! - rank.get(b)!;
    });
  }
}
