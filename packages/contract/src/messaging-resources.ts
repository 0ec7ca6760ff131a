import { defineResource, type FieldDef } from './resource.js';

/**
 * Messaging screens (issue 15, MSG; design: docs/architecture.md, "Messaging: in-app, board, SMS, push,
 * Telegram"): the message board (what bettors wrote), the in-app messages sent, and the app versions. The board and the messages are served by
 * hand-written routes (scope, replies, fan-out; apps/server/src/modules/messaging) and these fields mirror
 * their rows and filters; the app versions are a plain resource.
 */

const createdRange: FieldDef = { key: 'created_at', type: 'datetime', search: 'range', table: false, detail: false };

/** How a send reaches bettors. */
export const MESSAGE_AUDIENCES = ['all', 'bettors', 'filter', 'branch'] as const;
export type MessageAudience = (typeof MESSAGE_AUDIENCES)[number];
/** A send's state (the spec's "notify status"). */
export const MESSAGE_SEND_STATUSES = ['scheduled', 'sending', 'sent', 'cancelled'] as const;
export type MessageSendStatus = (typeof MESSAGE_SEND_STATUSES)[number];
export const APP_PLATFORMS = ['android', 'ios'] as const;
export type AppPlatform = (typeof APP_PLATFORMS)[number];
/** What the app is told: no update, an optional one, or a forced one. */
export const APP_UPDATE_KINDS = ['none', 'optional', 'forced'] as const;

/** At most this many phones in one pasted list, and bettors picked one by one. */
export const MESSAGE_MAX_PHONES = 10_000;
export const MESSAGE_MAX_BETTOR_IDS = 1_000;
export const MESSAGE_TITLE_MAX = 100;
export const MESSAGE_CONTENT_MAX = 2_000;
export const BOARD_CONTENT_MAX = 1_000;

/** Messaging › Message board (message_board): what bettors wrote, with its read state and the reply. */
export const boardMessageResource = /* @__PURE__ */ defineResource({
  name: 'message_board',
  page: 'message_board',
  api: '/messaging/board',
  kind: 'list',
  defaultSort: '-id',
  actions: ['delete'],
  fetchDetail: false,
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 80 },
    { key: 'bettor_id', type: 'number', search: 'exact', width: 90 },
    { key: 'bettor_name', type: 'text', table: false },
    { key: 'phone', type: 'text', search: 'exact', width: 140 },
    { key: 'content', type: 'textarea' },
    /** 1 not viewed, 2 viewed (spec §4 Message). */
    { key: 'read_status', type: 'enum', enum: 'message_status', search: 'exact', width: 110 },
    /** 'yes' / 'no' (labels messaging.replied.<code>). */
    { key: 'replied', type: 'text', labels: 'messaging.replied', search: 'exact', width: 100 },
    { key: 'reply_content', type: 'textarea', table: false },
    { key: 'replied_at', type: 'datetime', table: false },
    { key: 'replied_by', type: 'text', table: false },
    { key: 'read_at', type: 'datetime', table: false },
    createdRange,
    { key: 'create_time', type: 'datetime', sortable: true, width: 170 },
  ],
});

/** Messaging › Message list (message_list): in-app messages sent, with their progress and reads. */
export const messageResource = /* @__PURE__ */ defineResource({
  name: 'message_list',
  page: 'message_list',
  api: '/messaging/messages',
  kind: 'list',
  defaultSort: '-id',
  actions: ['delete'],
  fetchDetail: false,
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 80 },
    { key: 'title', type: 'text', search: 'like', width: 180 },
    { key: 'content', type: 'textarea', table: false },
    /** labels messaging.audience.<code> */
    { key: 'audience', type: 'text', labels: 'messaging.audience', search: 'exact', width: 120 },
    { key: 'all_users', type: 'switch', width: 90 },
    /** The spec's notify status: labels messaging.status.<code> */
    { key: 'status', type: 'text', labels: 'messaging.status', search: 'exact', width: 110 },
    { key: 'recipient_count', type: 'number', sortable: true, width: 110 },
    { key: 'delivered_count', type: 'number', width: 110 },
    { key: 'read_count', type: 'number', width: 90 },
    { key: 'send_at', type: 'datetime', sortable: true, width: 170 },
    /** The spec's "check time": when a recipient first read it. */
    { key: 'first_read_at', type: 'datetime', width: 170 },
    { key: 'sender_account', type: 'text', search: 'exact', width: 120 },
    { key: 'sent_at', type: 'datetime', table: false },
    createdRange,
    { key: 'create_time', type: 'datetime', table: false },
  ],
});

/** Messaging › App config (app_config): app versions per platform; the app asks GET /api/public/app-version. */
export const appVersionResource = /* @__PURE__ */ defineResource({
  name: 'app_config',
  page: 'app_config',
  api: '/messaging/app_versions',
  kind: 'list',
  defaultSort: '-id',
  actions: ['create', 'edit', 'delete'],
  duty: {},
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    /** 'android' | 'ios' (labels messaging.platform.<code>). */
    { key: 'platform', type: 'text', labels: 'messaging.platform', search: 'exact', createOnly: true, required: true, maxLength: 16, default: 'android', width: 100 },
    /** Semantic version, e.g. 1.4.2. */
    { key: 'version', type: 'text', search: 'exact', editable: true, required: true, maxLength: 32, width: 100 },
    { key: 'version_code', type: 'number', sortable: true, editable: true, required: true, min: 0, max: 2_000_000_000, default: 1, width: 110 },
    { key: 'poster', type: 'image', editable: true, maxLength: 500, table: false },
    { key: 'download_url', type: 'text', editable: true, required: true, maxLength: 500, table: false },
    { key: 'update_text', type: 'textarea', editable: true, maxLength: 2000 },
    { key: 'update_url', type: 'text', editable: true, maxLength: 500, table: false },
    { key: 'force_update', type: 'switch', search: 'exact', editable: true, default: false, width: 100 },
    { key: 'updated_by', type: 'text', width: 110 },
    { key: 'updated_at', type: 'datetime', sortable: true, width: 170 },
  ],
});
