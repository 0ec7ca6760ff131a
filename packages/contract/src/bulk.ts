/**
 * Bulk actions (issue 29): a list's selected rows acted on in one call. The server runs the row's own
 * single action for each id, each in its own transaction, and answers every row's outcome; the console
 * shows them (apps/web/src/resources/Bulk.tsx). No zod here: the console takes this file at run time.
 */

/** At most this many ids in one bulk call (more: 400). */
export const BULK_MAX_IDS = 100;

/** What became of one row of a bulk call. */
export interface BulkOutcome {
  /** The row's id as the body named it (a market's key for markets). */
  id: number | string;
  /** Done; the row's own single action answered without a refusal. */
  ok: boolean;
  /** The row's state after it (e.g. a withdrawal awaiting a second approval rather than disbursing). */
  status?: number;
  /** The refusal's code and its text in the caller's language, as the single action would answer them. */
  code?: string;
  message?: string;
}

export interface BulkAnswer {
  items: BulkOutcome[];
}
