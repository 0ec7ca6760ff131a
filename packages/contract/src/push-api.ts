import { z } from 'zod';
import { component } from './answers.js';
import { text } from './input.js';
import { PUSH_PLATFORMS } from './push-resources.js';

/** Push and Telegram (issue 15): filters, bodies and answers of apps/server/src/modules/{push,telegram}. */

const id = z.coerce.number().int().min(1).max(2_147_483_647);
const str = z.string();
const num = z.number();

export const pushDeviceFilters = z.object({
  id: id.optional(),
  bettor_id: id.optional(),
  phone: text(32).optional(),
  platform: z.enum(PUSH_PLATFORMS).optional(),
  app_version: text(32).optional(),
  model: text(64).optional(),
  last_title: text(64).optional(),
  invalid: z.enum(['true', 'false']).optional(),
});

export const pushDeviceRow = z.object({
  id: num,
  bettor_id: num.nullable(),
  phone: str.nullable(),
  // No FCM registration token: whoever holds it can push to the phone; the server never answers it.
  platform: str,
  model: str,
  os_name: str,
  os_version: str,
  app_version: str,
  last_title: str.nullable(),
  last_body: str.nullable(),
  last_pushed_at: str.nullable(),
  invalid: z.boolean(),
  invalid_reason: str.nullable(),
  registered_at: str,
});
export type PushDeviceRow = z.infer<typeof pushDeviceRow>;

const title = text(100).min(1);
const body = text(1000).min(1);

/** A segment of the devices: every valid device of the sender's branch, narrowed by platform and app version. */
export const pushSegment = z.strictObject({
  platform: z.enum(PUSH_PLATFORMS).optional(),
  app_version: text(32).min(1).optional(),
});
export type PushSegment = z.infer<typeof pushSegment>;

export const pushSegmentQuery = z.object({
  platform: z.enum(PUSH_PLATFORMS).optional(),
  app_version: text(32).min(1).optional(),
});
export const pushCountAnswer = z.object({ count: num });
export type PushCountAnswer = z.infer<typeof pushCountAnswer>;

/** POST /push/public: a public push to all devices or a segment. */
export const pushPublicBody = z.strictObject({ title, body, segment: pushSegment.default({}) });
export type PushPublicBody = z.infer<typeof pushPublicBody>;

/** POST /push/precision: a push to one or a few chosen devices (at most 50). */
export const pushPrecisionBody = z.strictObject({ title, body, device_ids: z.array(z.number().int().min(1).max(2_147_483_647)).min(1).max(50) });
export type PushPrecisionBody = z.infer<typeof pushPrecisionBody>;

export const pushSendAnswer = z.object({
  id: num,
  kind: str,
  title: str,
  body: str,
  segment: z.object({ platform: str.optional(), app_version: str.optional() }),
  target_count: num,
  sent_count: num,
  failed_count: num,
  invalid_count: num,
  status: str,
  sender_admin_id: num,
  created_at: str,
  finished_at: str.nullable(),
});
export type PushSendAnswer = z.infer<typeof pushSendAnswer>;

export const pushResultRow = z.object({
  device_id: num,
  model: str.nullable(),
  phone: str.nullable(),
  status: str,
  error: str.nullable(),
  provider_id: str.nullable(),
});
export type PushResultRow = z.infer<typeof pushResultRow>;

export const pushSendDetail = pushSendAnswer.extend({ results: z.array(pushResultRow) });
export type PushSendDetail = z.infer<typeof pushSendDetail>;

// ─── Telegram ─────────────────────────────────────────────────────────────────

export const telegramBindingFilters = z.object({
  id: id.optional(),
  subject: z.enum(['admin', 'bettor']).optional(),
  username: text(64).optional(),
  account: text(64).optional(),
});

export const telegramBindingRow = z.object({
  id: num,
  subject: str,
  admin_id: num.nullable(),
  bettor_id: num.nullable(),
  account: str.nullable(),
  name: str.nullable(),
  tg_user_id: num,
  chat_id: num,
  first_name: str,
  username: str.nullable(),
  language_code: str.nullable(),
  bound_at: str,
});
export type TelegramBindingRow = z.infer<typeof telegramBindingRow>;

/** POST /telegram/bind-code: a one-time code for the signed-in admin (shown once; 10 minutes, single use). */
export const telegramBindCodeAnswer = z.object({
  code: str,
  /** https://t.me/<bot>?start=<code>, when the bot's username is known. */
  deep_link: str.nullable(),
  bot_username: str.nullable(),
  expires_at: str,
});
export type TelegramBindCodeAnswer = z.infer<typeof telegramBindCodeAnswer>;

/** GET /telegram/me: the signed-in admin's own binding, if any. */
export const telegramMeAnswer = z.object({ binding: telegramBindingRow.nullable(), bot_username: str.nullable() });
export type TelegramMeAnswer = z.infer<typeof telegramMeAnswer>;

// Named in the API document (components.schemas): answers several operations give, referred to by `$ref`.
component(pushDeviceRow, 'PushDeviceRow');
