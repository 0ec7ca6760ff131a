import { z } from 'zod';
import { SMS_MAX_CHARS } from '@dau/domain';
import { answerRow, component } from './answers.js';
import { dateTime, int32, queryBigId, queryInt32, text } from './input.js';
import { bettorTargetFilter } from './messaging-api.js';
import { SMS_RECIPIENT_STATUSES, SMS_SEND_STATUSES } from './sms-resources.js';

/**
 * Request and answer shapes of the SMS routes (issue 15, SMS; declarations without zod in
 * ./sms-resources.ts). A send's target is a pasted phone list, the bettors list's filters (the same
 * shape as an in-app message's filter target) or one number.
 */

export const smsTarget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('phones'), phones: text(1_000_000).pipe(z.string().min(1)) }),
  z.strictObject({ kind: z.literal('filter'), filter: bettorTargetFilter }),
  z.strictObject({ kind: z.literal('one'), phone: text(32).pipe(z.string().min(1)) }),
]);
export type SmsTarget = z.infer<typeof smsTarget>;

export const smsSendBody = z.strictObject({
  content: text(SMS_MAX_CHARS).pipe(z.string().min(1)),
  target: smsTarget,
  /** The preview's estimated cost: when given and the cost changed since, the send is refused (preview again). */
  expected_cost_cents: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type SmsSendBody = z.infer<typeof smsSendBody>;

export const smsPreviewAnswer = z.object({
  recipient_count: z.number(),
  excluded_count: z.number(),
  /** Numbers of bettors outside the caller's branch, or (for a branch admin) of nobody: not sent to. */
  out_of_scope_count: z.number(),
  /** Entries of a pasted list that are not Tanzanian mobile numbers (at most 50 shown). */
  invalid: z.array(z.string()),
  invalid_count: z.number(),
  duplicates: z.number(),
  encoding: z.enum(['gsm7', 'ucs2']),
  units: z.number(),
  segments: z.number(),
  cost_per_segment_cents: z.number(),
  estimated_cost_cents: z.number(),
});
export type SmsPreviewAnswer = z.infer<typeof smsPreviewAnswer>;

export const smsSendRow = answerRow({
  id: 'number', content: 'string', encoding: 'string', segments: 'number', target_kind: 'string', recipient_count: 'number',
  excluded_count: 'number', estimated_cost_cents: 'number', sent_count: 'number', delivered_count: 'number', failed_count: 'number',
  queued_count: 'number', written_count: 'number', status: 'string', sender_admin_id: 'number', sender_account: 'string?', create_time: 'string', finish_time: 'string?',
});
export type SmsSendRow = z.infer<typeof smsSendRow>;

export const smsSendFilters = z.object({
  status: z.enum(SMS_SEND_STATUSES).optional(),
  created_at_from: dateTime().optional(),
  created_at_to: dateTime().optional(),
});

export const smsRecipientRow = answerRow({
  id: 'number', phone: 'string', bettor_id: 'number?', status: 'string', provider_message_id: 'string?', failure_reason: 'string?',
  sms_status: 'number', cost: 'string?', attempts: 'number', update_time: 'string',
});
export type SmsRecipientRow = z.infer<typeof smsRecipientRow>;

export const smsRecipientFilters = z.object({
  status: z.enum(SMS_RECIPIENT_STATUSES).optional(),
  phone: text(32).optional(),
});

export const smsSendParams = z.object({ id: queryBigId() });

export const smsConfigAnswer = z.object({
  username: z.string(),
  /** Whether an API key is stored (the key itself is never answered). */
  api_key_set: z.boolean(),
  sender_id: z.string(),
  cost_per_segment_cents: z.number(),
  rate_per_second: z.number(),
  enabled: z.boolean(),
  /** The URLs to register with Africa's Talking (they carry the callback token). */
  delivery_report_url: z.string(),
  incoming_url: z.string(),
  updated_at: z.string(),
});
export type SmsConfigAnswer = z.infer<typeof smsConfigAnswer>;

export const smsConfigBody = z.strictObject({
  username: text(64).pipe(z.string().min(1)).optional(),
  /** Write-only: an empty value keeps the stored key. */
  api_key: text(256).optional(),
  sender_id: text(11).optional(),
  cost_per_segment_cents: int32(0, 100_000_00).optional(),
  rate_per_second: int32(1, 10_000).optional(),
  enabled: z.boolean().optional(),
});

export const smsImportBody = z.strictObject({ text: text(1_000_000).pipe(z.string().min(1)) });
export const smsImportAnswer = z.object({ added: z.number(), already: z.number(), invalid: z.array(z.string()), invalid_count: z.number() });
export type SmsImportAnswer = z.infer<typeof smsImportAnswer>;

export const smsRecipientQuery = smsRecipientFilters.extend({ page: queryInt32(1).default(1), page_size: queryInt32(1, 500).default(20) });

// Named in the API document (components.schemas): answers several operations give, referred to by `$ref`.
component(smsSendRow, 'SmsSendRow');
