import { z } from 'zod';
import { answerRow, component } from './answers.js';
import { dateTime, id, int16, queryId, queryInt32, text } from './input.js';
import {
  APP_PLATFORMS, APP_UPDATE_KINDS, MESSAGE_AUDIENCES, MESSAGE_CONTENT_MAX, MESSAGE_MAX_BETTOR_IDS, MESSAGE_SEND_STATUSES, MESSAGE_TITLE_MAX,
} from './messaging-resources.js';

/**
 * Request and answer shapes of the messaging routes (issue 15, MSG; declarations without zod in
 * ./messaging-resources.ts).
 */

const optionalText = (max = 64) => text(max).optional();
const required = (max: number) => text(max).pipe(z.string().min(1));

// ---------------------------------------------------------------------------------------------- board

export const boardFilters = z.object({
  bettor_id: queryId().optional(),
  phone: optionalText(32),
  read_status: queryInt32(1, 2).optional(),
  replied: z.enum(['yes', 'no']).optional(),
  created_at_from: dateTime().optional(),
  created_at_to: dateTime().optional(),
});

export const boardRow = answerRow({
  id: 'number', bettor_id: 'number', bettor_name: 'string?', phone: 'string', content: 'string', read_status: 'number', replied: 'string',
  reply_content: 'string?', replied_at: 'string?', replied_by: 'string?', read_at: 'string?', create_time: 'string',
});
export type BoardRow = z.infer<typeof boardRow>;

export const boardReplyBody = z.strictObject({ title: text(MESSAGE_TITLE_MAX).optional(), content: required(MESSAGE_CONTENT_MAX) });
export const boardReplyAnswer = z.object({ board: boardRow, message_id: z.number() });
export type BoardReplyAnswer = z.infer<typeof boardReplyAnswer>;
export const boardClearBody = z.strictObject({ confirm: z.literal(true) });
export const boardClearAnswer = z.object({ deleted: z.number() });
export type BoardClearAnswer = z.infer<typeof boardClearAnswer>;

// ------------------------------------------------------------------------------------------- messages

export const messageFilters = z.object({
  title: optionalText(MESSAGE_TITLE_MAX),
  audience: z.enum(MESSAGE_AUDIENCES).optional(),
  status: z.enum(MESSAGE_SEND_STATUSES).optional(),
  sender_account: optionalText(64),
  created_at_from: dateTime().optional(),
  created_at_to: dateTime().optional(),
});

export const messageRow = answerRow({
  id: 'number', title: 'string', content: 'string', audience: 'string', all_users: 'boolean', status: 'string', recipient_count: 'number',
  delivered_count: 'number', read_count: 'number', send_at: 'string', first_read_at: 'string?', sender_account: 'string?', sent_at: 'string?',
  create_time: 'string',
});
export type MessageRow = z.infer<typeof messageRow>;

/** The bettors list's filters (money › user), as a send's target. */
export const bettorTargetFilter = z.strictObject({
  id: id().optional(),
  phone: optionalText(32),
  name: optionalText(64),
  invitation_code: optionalText(64),
  agent_id: id().optional(),
  inviter_id: id().optional(),
  disabled: int16(1, 2).optional(),
  online_status: int16(1, 2).optional(),
  risk_level: int16(1, 5).optional(),
  bet_status: int16(1, 2).optional(),
  created_at_from: dateTime().optional(),
  created_at_to: dateTime().optional(),
});
export type BettorTargetFilter = z.infer<typeof bettorTargetFilter>;

/** Who a send reaches. Phones are pasted text (new lines, commas); each is normalised to +255…. */
export const messageTarget = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('all') }),
  z.strictObject({ kind: z.literal('phones'), phones: text(200_000).pipe(z.string().min(1)) }),
  z.strictObject({ kind: z.literal('bettors'), bettor_ids: z.array(id()).min(1).max(MESSAGE_MAX_BETTOR_IDS) }),
  z.strictObject({ kind: z.literal('filter'), filter: bettorTargetFilter }),
  z.strictObject({ kind: z.literal('branch'), agent_id: id() }),
]);
export type MessageTarget = z.infer<typeof messageTarget>;

export const messageSendBody = z.strictObject({
  title: required(MESSAGE_TITLE_MAX),
  content: required(MESSAGE_CONTENT_MAX),
  target: messageTarget,
  /** Later than now: scheduled; absent: now. */
  send_at: dateTime().optional(),
});
export type MessageSendBody = z.infer<typeof messageSendBody>;

/** What a phone list resolved to: bettors of my branch found, numbers not found in it, entries that are not numbers. */
export const phoneResolution = z.object({
  found: z.number(),
  not_found: z.array(z.string()),
  invalid: z.array(z.string()),
  duplicates: z.number(),
});
export type PhoneResolution = z.infer<typeof phoneResolution>;
export const phoneResolveBody = z.strictObject({ phones: text(200_000).pipe(z.string().min(1)) });
/** POST /messaging/recipients/count: how many bettors a send to this target would reach now (the confirmation names it). */
export const recipientCountBody = z.strictObject({ target: messageTarget });
export const recipientCountAnswer = z.object({ count: z.number() });
export type RecipientCountAnswer = z.infer<typeof recipientCountAnswer>;

export const messageSendAnswer = z.object({ message: messageRow, phones: phoneResolution.nullable() });
export type MessageSendAnswer = z.infer<typeof messageSendAnswer>;

// ------------------------------------------------------------------------------------ public app version

export const appVersionQuery = z.object({ platform: z.enum(APP_PLATFORMS), version: text(32).pipe(z.string().regex(/^\d{1,6}(\.\d{1,6}){0,3}$/)) });
export const appVersionAnswer = z.object({
  latest: z.string().nullable(),
  version_code: z.number().nullable(),
  update: z.enum(APP_UPDATE_KINDS),
  download_url: z.string().nullable(),
  update_text: z.string().nullable(),
  update_url: z.string().nullable(),
  poster: z.string().nullable(),
});
export type AppVersionAnswer = z.infer<typeof appVersionAnswer>;

export const inboxItem = z.object({ id: z.number(), title: z.string(), content: z.string(), sent_at: z.string(), read: z.boolean() });
export type InboxItem = z.infer<typeof inboxItem>;

// Named in the API document (components.schemas): answers several operations give, referred to by `$ref`.
component(boardRow, 'BoardMessageRow');
component(messageRow, 'MessageRow');
