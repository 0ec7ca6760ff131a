import { BaseSequencer, type TestSpecification } from 'vitest/node';
import path from 'node:path';

/**
 * The order files start in: the longest first, so that two workers finish together instead of one
 * starting a three-minute file when the other is nearly done (on a fresh clone the browser phase took
 * 923 s in the order files were found, 872 s longest first). Vitest orders by the durations of the last
 * run on this machine when it has them; a fresh checkout (CI) has none, so these typical seconds (quiet
 * 2-core machine, two files side by side) stand in. A file missing here counts as `UNKNOWN_SECONDS`.
 */
const TYPICAL_SECONDS: Readonly<Record<string, number>> = {
  'e2e/accessibility.test.ts': 171,
  'e2e/csp.test.ts': 144,
  'e2e/fresh-start.test.ts': 103,
  'e2e/jackpot.test.ts': 91,
  'e2e/betting.test.ts': 80,
  'e2e/console-defects.test.ts': 73,
  'e2e/shell.test.ts': 66,
  'e2e/money.test.ts': 61,
  'e2e/casino.test.ts': 53,
  'e2e/system-screens.test.ts': 51,
  'e2e/drawers.test.ts': 49,
  'e2e/shop.test.ts': 48,
  'e2e/tron.test.ts': 42,
  'e2e/promotions.test.ts': 40,
  'e2e/push.test.ts': 39,
  'e2e/messaging.test.ts': 35,
  'e2e/sports.test.ts': 32,
  'e2e/sms.test.ts': 31,
  'e2e/login.test.ts': 31,
  'e2e/operations.test.ts': 29,
  'e2e/racing.test.ts': 26,
  'e2e/content.test.ts': 19,
};
const UNKNOWN_SECONDS = 30;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const seconds = (f: TestSpecification) => {
      const file = path.relative(root, f.moduleId);
      const last = cache.getFileTestResults(`${f.project.name}:${file}`);
      return last ? last.duration / 1000 : (TYPICAL_SECONDS[file] ?? UNKNOWN_SECONDS);
    };
    // Projects one after the other and isolated files first, as vitest does; within them longest first.
    const base = await super.sort(files);
    const rank = new Map(base.map((f, i) => [f, i]));
    return [...base].sort((a, b) => {
      if (a.project.name !== b.project.name) return rank.get(a)! - rank.get(b)!;
      if (a.project.config.isolate !== b.project.config.isolate) return rank.get(a)! - rank.get(b)!;
      return seconds(b) - seconds(a);
    });
  }
}
