import { z } from 'zod';
import { bigId, rawText, text } from './input.js';
import { BULK_MAX_IDS } from './bulk.js';

export { BULK_MAX_IDS, type BulkAnswer, type BulkOutcome } from './bulk.js';

/** Ids of a bulk call: 1 to BULK_MAX_IDS (more is 400). */
export const bulkIds = z.array(bigId()).min(1).max(BULK_MAX_IDS);
export const bulkIdsBody = z.strictObject({ ids: bulkIds });
/** A bulk refusal: the ids and the one reason given for all of them (as the single refusal asks). */
export const bulkRefuseBody = z.strictObject({ ids: bulkIds, reason: rawText(300) });
/** Markets of one match suspended or resumed together, by key. */
export const bulkMarketsBody = z.strictObject({ keys: z.array(text(200).min(1)).min(1).max(BULK_MAX_IDS), is_suspended: z.boolean() });

export const bulkOutcome = z.object({
  id: z.union([z.number(), z.string()]),
  ok: z.boolean(),
  status: z.number().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});
/** 200 with every row's outcome, also when some (or all) rows were refused. */
export const bulkAnswer = z.object({ items: z.array(bulkOutcome) });
