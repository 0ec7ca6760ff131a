import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * What `npm test` (scripts/test.mjs) prints after its one vitest run: per project its files, cases run,
 * passed, failed and skipped and the seconds its files took (import, hooks and tests, summed: projects
 * share the workers, so a project has no wall time of its own), each file's seconds, and the distinct
 * cases (file and full name: a case run on both engines counts once). Written as JSON to
 * `DAU_TEST_SUMMARY`.
 */
export interface Summary {
  projects: Record<string, { files: number; runs: number; passed: number; failed: number; skipped: number; seconds: number }>;
  files: [string, number][];
  cases: string[];
  failedModules: string[];
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const out = process.env.DAU_TEST_SUMMARY;
    if (!out) return;
    const summary: Summary = { projects: {}, files: [], cases: [], failedModules: [] };
    const cases = new Set<string>();
    for (const m of modules) {
      const name = m.project.name;
      const file = path.relative(process.cwd(), m.moduleId);
      const p = (summary.projects[name] ??= { files: 0, runs: 0, passed: 0, failed: 0, skipped: 0, seconds: 0 });
      const d = m.diagnostic();
      const seconds = (d.duration + d.collectDuration + d.prepareDuration + d.setupDuration + d.environmentSetupDuration) / 1000;
      p.files++;
      p.seconds += seconds;
      summary.files.push([`${file} (${name})`, seconds]);
      // A module that failed outside its cases (an import error, a failing beforeAll with no case run).
      if (m.state() === 'failed' && m.errors().length > 0) summary.failedModules.push(`${file} (${name})`);
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed' || state === 'failed') {
          p.runs++;
          p[state]++;
          cases.add(`${file} > ${t.fullName}`);
        } else p.skipped++;
      }
    }
    summary.cases = [...cases];
    fs.writeFileSync(out, JSON.stringify(summary));
  }
}
