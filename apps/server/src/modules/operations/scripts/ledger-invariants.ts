import { checkInvariants } from '../../money/index.js';
import { defineReadOnlyScript } from './types.js';

/** Re-runs the ledger's invariant check: every balance equals its bills, the journal sums to zero. */
export const ledgerInvariants = defineReadOnlyScript({
  name: 'ledger-invariants',
  version: 1,
  async run(sc) {
    await sc.out('checking balances against bills and the journal against zero...');
    const problems = await checkInvariants(sc.db);
    for (const p of problems.slice(0, 200)) await sc.out(`PROBLEM: ${p}`);
    if (problems.length > 200) await sc.out(`... and ${problems.length - 200} more`);
    await sc.out(problems.length ? `${problems.length} problem(s)` : 'the ledger is consistent');
    return { ok: problems.length === 0, problems: problems.length };
  },
});
