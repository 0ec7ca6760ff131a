import { sql } from 'drizzle-orm';
import { AppError } from '../../../platform/errors.js';
import { admins } from '../../../platform/schema.js';
import type { Scope } from '../../../platform/listing.js';

/**
 * The audit reports are the whole book's (DESIGN "Duties"): an auditor's log or a void report that silently
 * left out the other branches would read as complete, so a branch admin is refused outright (403
 * WHOLE_BOOK_ONLY), in the list, its count and its export alike (they all build their condition here). The
 * routes are reads, so they do not declare a `duty` (a duty also keeps every successful call in the settings
 * history, which is for changes).
 */
export function wholeBookOnly(scope: Scope): void {
  if (!scope.all) throw new AppError(403, 'WHOLE_BOOK_ONLY');
}

/** The id of the admin with this account (case-insensitive), as a subquery: no admin, no rows. */
export const adminByAccount = (account: string) => sql`(select ${admins.id} from ${admins} where lower(${admins.account}) = lower(${account}) limit 1)`;
