import { defineResource, type FieldDef, type ResourceDef } from './resource.js';

/**
 * Push devices, pushes and Telegram bindings (issue 15) as server and console read them; the zod shapes of
 * the requests and answers are in push-api.ts. Locale area `push` (field labels `push.field.<key>`).
 */

export const PUSH_PLATFORMS = ['android', 'ios'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

/** GET /push/devices (push_device) and /push/precision/devices (precision_push_device): row keys and filters. */
export const PUSH_DEVICE_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number', sortable: true, width: 70 },
  { key: 'last_title', type: 'text', search: 'like' },
  { key: 'last_body', type: 'text' },
  { key: 'model', type: 'text', search: 'like' },
  { key: 'os_name', type: 'text' },
  { key: 'os_version', type: 'text' },
  { key: 'platform', type: 'text', search: 'exact', labels: 'push.platform' },
  { key: 'app_version', type: 'text', search: 'exact' },
  { key: 'phone', type: 'text', search: 'like' },
  { key: 'bettor_id', type: 'number', search: 'exact' },
  { key: 'invalid', type: 'switch', search: 'exact' },
  { key: 'invalid_reason', type: 'text', table: false },
  { key: 'last_pushed_at', type: 'datetime', sortable: true },
  { key: 'registered_at', type: 'datetime', sortable: true },
];

/** The FCM settings (push_device › settings, button `edit`): the service account key file is write-only. */
export const pushConfigResource = /* @__PURE__ */ defineResource({
  name: 'push_config',
  page: 'push_device',
  api: '/push/config',
  kind: 'singleton',
  title: 'push.config.title',
  actions: ['edit'],
  duty: { two: ['project_id', 'service_account_json'] },
  fields: [
    { key: 'project_id', type: 'text', editable: true, maxLength: 64, label: 'push.field.project_id' },
    { key: 'service_account_json', type: 'textarea', editable: true, writeOnly: true, table: false, detail: false, maxLength: 8_000, label: 'push.field.service_account_json' },
    { key: 'rate_per_second', type: 'number', editable: true, min: 1, max: 10_000, label: 'push.field.rate_per_second' },
    { key: 'enabled', type: 'switch', editable: true, label: 'push.field.enabled' },
    { key: 'updated_at', type: 'datetime', label: 'push.field.updated_at' },
  ],
});

/** GET /telegram/bindings (telegram_bot_binding): row keys and filters. */
export const TELEGRAM_BINDING_FIELDS: readonly FieldDef[] = [
  { key: 'id', type: 'number', sortable: true, width: 70 },
  { key: 'first_name', type: 'text' },
  { key: 'username', type: 'text', search: 'like' },
  { key: 'language_code', type: 'text' },
  { key: 'subject', type: 'text', search: 'exact', labels: 'push.subject' },
  { key: 'account', type: 'text', search: 'like' },
  { key: 'name', type: 'text' },
  { key: 'chat_id', type: 'number' },
  { key: 'bound_at', type: 'datetime', sortable: true },
];

/** The bot's settings (telegram_bot_binding › settings, button `edit`): the bot token is write-only. */
export const telegramConfigResource = /* @__PURE__ */ defineResource({
  name: 'telegram_config',
  page: 'telegram_bot_binding',
  api: '/telegram/config',
  kind: 'singleton',
  title: 'push.telegram.configTitle',
  actions: ['edit'],
  duty: { two: ['bot_token'] },
  fields: [
    { key: 'bot_token', type: 'text', editable: true, writeOnly: true, table: false, detail: false, maxLength: 200, label: 'push.field.bot_token' },
    { key: 'enabled', type: 'switch', editable: true, label: 'push.field.enabled' },
    { key: 'notify_admins', type: 'switch', editable: true, label: 'push.field.notify_admins' },
    { key: 'updated_at', type: 'datetime', label: 'push.field.updated_at' },
  ],
});

/** The lists as the console shows them: the devices (all, and the precision push's choice) and the Telegram bindings. */
export const pushDeviceResource: ResourceDef = {
  name: 'push_device', page: 'push_device', api: '/push/devices', kind: 'list', defaultSort: '-id', actions: [], fetchDetail: false, fields: PUSH_DEVICE_FIELDS,
};
export const precisionDeviceResource: ResourceDef = { ...pushDeviceResource, name: 'precision_push_device', page: 'precision_push_device', api: '/push/precision/devices' };
export const telegramBindingResource: ResourceDef = {
  name: 'telegram_bot_binding', page: 'telegram_bot_binding', api: '/telegram/bindings', kind: 'list', defaultSort: '-id', actions: ['delete'], fetchDetail: false,
  fields: TELEGRAM_BINDING_FIELDS,
};
