import { z } from 'zod';
import { component } from './answers.js';
import { dateTime, id, text } from './input.js';
import { pageAnswer } from './resource-answers.js';

/**
 * Duties (DESIGN "Duties: branch, whole book, two people"): what a route that changes a setting of the
 * whole product declares beside its access.
 *  - `book`: only an admin whose data scope is the whole book may call it (403 WHOLE_BOOK_ONLY otherwise);
 *  - `two`: as `book`, and a change of one of `fields` (every call when `fields` is absent) is stored as a
 *    pending change that takes effect only when a second whole-book admin holding the same button approves.
 * `setting` names the setting in the history and the pending list (default: the route's path).
 */
export interface Duty {
  ring: 'book' | 'two';
  fields?: readonly string[];
  setting?: string;
}

export const PENDING_CHANGE_STATUSES = ['pending', 'applying', 'applied', 'failed', 'refused', 'withdrawn', 'expired'] as const;
export type PendingChangeStatus = (typeof PENDING_CHANGE_STATUSES)[number];

/** A field of a pending change: what it is now and what was asked (secrets as `***`). */
export const changeDiffRow = z.object({ field: z.string(), before: z.unknown(), after: z.unknown() });

export const pendingChangeRow = z.object({
  id: z.number().int(),
  setting: z.string(),
  method: z.string(),
  url: z.string(),
  page: z.string(),
  button: z.string().nullable(),
  diff: z.array(changeDiffRow),
  status: z.enum(PENDING_CHANGE_STATUSES),
  requested_by: z.number().int(),
  requested_account: z.string().nullable(),
  requested_at: z.string(),
  expires_at: z.string(),
  decided_by: z.number().int().nullable(),
  decided_account: z.string().nullable(),
  decided_at: z.string().nullable(),
  reason: z.string().nullable(),
  result_status: z.number().int().nullable(),
  result_code: z.string().nullable(),
  /** Whether the caller may approve or refuse it (whole book, the same button, not the requester, still pending). */
  can_decide: z.boolean(),
  /** Admins other than the requester who may approve it (0: it waits until one exists). */
  approvers: z.number().int(),
});
export type PendingChangeRow = z.infer<typeof pendingChangeRow>;

/** The answer (202) of a call whose change now waits for a second admin. */
export const pendingChangeAnswer = z.object({ pending_change: pendingChangeRow });
/** The answer of an approval: the change, and what its route answered when it was applied. */
export const pendingApprovalAnswer = z.object({ pending_change: pendingChangeRow, result: z.unknown() });
export type PendingApprovalAnswer = z.infer<typeof pendingApprovalAnswer>;

export const pendingChangeQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(20),
  status: z.enum(PENDING_CHANGE_STATUSES).optional(),
  setting: text(100).optional(),
  mine: z.enum(['1', '0']).optional(),
});
export const pendingChangeList = pageAnswer(pendingChangeRow);
export const pendingChangeDecision = z.object({ reason: text(500).optional() });
export const pendingChangeIdParams = z.object({ id: z.string().regex(/^[0-9]{1,9}$/).transform(Number).pipe(id()) });

export const settingHistoryRow = z.object({
  id: z.number().int(),
  setting: z.string(),
  method: z.string(),
  url: z.string(),
  admin_id: z.number().int().nullable(),
  account: z.string().nullable(),
  approved_by: z.number().int().nullable(),
  approved_account: z.string().nullable(),
  pending_change_id: z.number().int().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: z.string(),
});
export type SettingHistoryRow = z.infer<typeof settingHistoryRow>;
export const settingHistoryQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  page_size: z.coerce.number().int().min(1).max(200).default(20),
  setting: text(100).optional(),
  account: text(64).optional(),
  /** The settings history screen's period (the declaration's `created_at` range): from inclusive, to exclusive. */
  created_at_from: dateTime().optional(),
  created_at_to: dateTime().optional(),
});
export const settingHistoryList = pageAnswer(settingHistoryRow);
/** The settings the history and the pending list can be filtered by (the routes' `setting` names). */
export const settingNamesAnswer = z.object({ items: z.array(z.string()) });
export type SettingNamesAnswer = z.infer<typeof settingNamesAnswer>;

// Named in the API document (components.schemas): answers several operations give, referred to by `$ref`.
component(pendingChangeRow, 'PendingChangeRow');
