import type { LineStatus, StatementLine } from './formats.js';

/**
 * The matcher (issue 28): a day's statement lines against our payments of that pay type. Pure: the
 * service loads both sides and stores the findings.
 *
 * A line finds its payment by our serial number when it carries one, else by the operator's transaction
 * id (our carrier order number), within its direction (collections ↔ recharges, disbursements ↔
 * withdrawals). Then:
 *  - no payment of ours: theirs_only (a second line for a payment already matched is one too);
 *  - the operator says completed and ours is still waiting (processing / disbursing): status_mismatch,
 *    to be settled by reconciliation (`reconcile`); so is a line that failed while ours waits;
 *  - one side success and the other failed/voided: status_mismatch;
 *  - both success with other amounts: amount_mismatch;
 *  - else matched.
 * A payment of ours paid/credited on the day that no line shows: ours_only. One still waiting that no
 * line shows is not a finding: the operator has not completed it.
 */

export type FindingKind = 'matched' | 'ours_only' | 'theirs_only' | 'amount_mismatch' | 'status_mismatch';
export const FINDING_KINDS: readonly FindingKind[] = ['matched', 'ours_only', 'theirs_only', 'amount_mismatch', 'status_mismatch'];

export interface OurPayment {
  direction: 'collect' | 'disburse';
  id: number;
  serial: string;
  carrierRef: string | null;
  /** Cents. */
  amount: number;
  /** success (paid / credited), failed (voided, refused, failed, timed out) or pending (still with the operator). */
  status: LineStatus;
  /** Waiting for the operator's answer (a recharge processing, a withdrawal disbursing): reconciliation settles it. */
  awaitingOperator: boolean;
  /** Paid on the statement's day (only those can be "ours only"). */
  paidOnDay: boolean;
}

export interface Finding {
  kind: FindingKind;
  direction: 'collect' | 'disburse';
  line?: StatementLine;
  ours?: OurPayment;
  reconcile: boolean;
}

const key = (direction: string, ref: string) => `${direction}\u0000${ref}`;

export function matchStatement(lines: readonly StatementLine[], ours: readonly OurPayment[]): Finding[] {
  const bySerial = new Map<string, OurPayment>();
  const byCarrier = new Map<string, OurPayment>();
  for (const p of ours) {
    bySerial.set(key(p.direction, p.serial), p);
    if (p.carrierRef) byCarrier.set(key(p.direction, p.carrierRef), p);
  }
  const used = new Set<OurPayment>();
  const findings: Finding[] = [];
  for (const line of lines) {
    const p = (line.reference ? bySerial.get(key(line.kind, line.reference)) : undefined) ?? byCarrier.get(key(line.kind, line.operatorRef));
    if (!p || used.has(p)) {
      findings.push({ kind: 'theirs_only', direction: line.kind, line, reconcile: false });
      continue;
    }
    used.add(p);
    findings.push({ kind: classify(line, p), direction: line.kind, line, ours: p, reconcile: p.awaitingOperator && line.status !== 'pending' });
  }
  for (const p of ours) {
    if (used.has(p) || !p.paidOnDay || p.status !== 'success') continue;
    findings.push({ kind: 'ours_only', direction: p.direction, ours: p, reconcile: false });
  }
  return findings;
}

function classify(line: StatementLine, p: OurPayment): FindingKind {
  if (line.status !== p.status) return 'status_mismatch';
  if (line.status === 'success' && line.amount !== p.amount) return 'amount_mismatch';
  return 'matched';
}

/** Counts per kind, and whether the day matches (nothing but matched findings). */
export function tally(findings: readonly Finding[]) {
  const counts = Object.fromEntries(FINDING_KINDS.map((k) => [k, 0])) as Record<FindingKind, number>;
  for (const f of findings) counts[f.kind] += 1;
  const matched = findings.every((f) => f.kind === 'matched');
  return { counts, result: matched ? ('matched' as const) : ('mismatch' as const) };
}
