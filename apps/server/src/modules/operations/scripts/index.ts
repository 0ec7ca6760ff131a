/**
 * The allow-list of scripts the runner knows (spec §2 `script`, made safe): named, versioned operations
 * defined in code. No arbitrary shell or SQL can be run through it.
 */
import type { ScriptDef } from './types.js';
import { analyseTables } from './analyse-tables.js';
import { billPartitions } from './bill-partitions.js';
import { statisticsDays } from './statistics-days.js';
import { ledgerInvariants } from './ledger-invariants.js';
import { prune } from './prune.js';
import { environment } from './environment.js';
import { rebuildConsole } from './rebuild-console.js';
import { billsDetachMonth } from './bills-detach-month.js';

export const SCRIPTS: ReadonlyMap<string, ScriptDef> = new Map(
  [analyseTables, billPartitions, statisticsDays, ledgerInvariants, prune, environment, rebuildConsole, billsDetachMonth].map((s) => [s.name, s as ScriptDef]),
);

export type { ScriptDef, ScriptContext, ScriptArgField, ScriptRefusal } from './types.js';
