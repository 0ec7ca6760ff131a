import { z } from 'zod';
import type { MessageCode } from '@dau/domain';
import type { Database, Db } from '../../../platform/db.js';
import type { AppContext } from '../../../platform/context.js';

/** An argument as the console's run form shows it (the zod schema is the check). */
export interface ScriptArgField {
  name: string;
  type: 'int' | 'day' | 'text' | 'choice';
  required: boolean;
  default?: string | number;
  min?: number;
  max?: number;
  options?: readonly string[];
}

/** What a running script may use: the database, its output, and whether this is a dry run. */
export interface ScriptContext {
  db: Db;
  database: Database;
  app: AppContext;
  dryRun: boolean;
  /** One line of output (redacted, then stored and streamed to the browser). */
  out(line: string): Promise<void>;
}

/**
 * One allow-listed operation: a name and version, an argument schema, whether it changes data (then it
 * offers a dry run) and whether it is dangerous (then a second admin approves the run).
 */
export interface ScriptDef<A = any> {
  name: string;
  version: number;
  dangerous: boolean;
  changesData: boolean;
  args: z.ZodType<A>;
  fields: readonly ScriptArgField[];
  /**
   * A check of the arguments against the installation's state when the run is asked for and approved
   * (a refusal answers 422 with its message); the run checks again, since state may change meanwhile.
   */
  precheck?(sc: Pick<ScriptContext, 'db' | 'database'>, args: A): Promise<ScriptRefusal | null>;
  run(sc: ScriptContext, args: A): Promise<Record<string, unknown>>;
}

/** Why a script may not run with these arguments (answered as 422 with the message). */
export interface ScriptRefusal {
  code: MessageCode;
  params?: Record<string, string | number>;
}

export const defineScript = <A>(def: ScriptDef<A>): ScriptDef<A> => def;

const noArgs = z.strictObject({});
type NoArgs = z.infer<typeof noArgs>;

/** A read-only script without arguments (a report or a check): not dangerous, no dry run, nothing to fill in. */
export const defineReadOnlyScript = (def: Pick<ScriptDef<NoArgs>, 'name' | 'version' | 'run'>): ScriptDef<NoArgs> =>
  defineScript({ ...def, dangerous: false, changesData: false, args: noArgs, fields: [] });
