import { defineResource } from './resource.js';

/**
 * SMS screens (issue 15, SMS): the no-send list (`no_send_sms`, a declared resource; phones are
 * normalised to +255… by the server) and the constants of the hand-written `sms_send` page (shapes in
 * ./sms-api.ts). Text and money rules are in @dau/domain (sms.ts).
 */

/** Where an excluded number came from. */
export const SMS_EXCLUSION_SOURCES = ['manual', 'import', 'stop'] as const;
/** What a send is addressed to. */
export const SMS_TARGET_KINDS = ['phones', 'filter', 'one'] as const;
/** A recipient's state: queued → sending → sent → delivered | failed. */
export const SMS_RECIPIENT_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed'] as const;
/** A send's state: 'preparing' (a filter send's recipients are still being written) → 'sending' → 'done'. */
export const SMS_SEND_STATUSES = ['preparing', 'sending', 'done'] as const;
/** Numbers a pasted list may hold. */
export const SMS_MAX_PHONES = 50_000;

export type SmsRecipientStatus = (typeof SMS_RECIPIENT_STATUSES)[number];
export type SmsTargetKind = (typeof SMS_TARGET_KINDS)[number];

/** SMS › No-send numbers (no_send_sms). */
export const smsExclusionResource = /* @__PURE__ */ defineResource({
  name: 'no_send_sms',
  page: 'no_send_sms',
  api: '/sms/exclusions',
  kind: 'list',
  defaultSort: '-id',
  actions: ['create', 'delete'],
  duty: { writes: ['delete'] },
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 80 },
    /** Any local form on create (0712 345 678); stored and shown as +255712345678. */
    { key: 'phone', type: 'text', search: 'like', createOnly: true, required: true, maxLength: 32, width: 160 },
    { key: 'source', type: 'text', search: 'exact', labels: 'sms.source', width: 120 },
    /** The admin who added it (none for a STOP reply). */
    { key: 'created_by', type: 'number', width: 110 },
    { key: 'created_at', type: 'datetime', sortable: true },
  ],
});

/**
 * SMS › Send (sms_send): the history of sends, built by hand on the server (GET /sms/sends, scoped to the
 * sender's branch); these fields mirror its row keys and filters. Money in cents of TSh.
 */
export const smsSendResource = /* @__PURE__ */ defineResource({
  name: 'sms_send',
  page: 'sms_send',
  api: '/sms/sends',
  kind: 'list',
  defaultSort: '-id',
  actions: [],
  fields: [
    { key: 'id', type: 'number', width: 80 },
    { key: 'content', type: 'textarea', width: 260 },
    /** 'gsm7' | 'ucs2' (labels sms.encoding.<code>). */
    { key: 'encoding', type: 'text', labels: 'sms.encoding', width: 100 },
    { key: 'segments', type: 'number', width: 80 },
    { key: 'target_kind', type: 'text', labels: 'sms.target', width: 110 },
    { key: 'recipient_count', type: 'number', width: 100 },
    { key: 'excluded_count', type: 'number', width: 100, table: false },
    { key: 'estimated_cost_cents', type: 'money', width: 120 },
    { key: 'delivered_count', type: 'number', width: 170 },
    { key: 'sent_count', type: 'number', table: false },
    { key: 'failed_count', type: 'number', width: 90 },
    { key: 'queued_count', type: 'number', table: false },
    /** Recipient rows written so far (a filter send writes them after it is confirmed, while 'preparing'). */
    { key: 'written_count', type: 'number', table: false },
    { key: 'status', type: 'text', search: 'exact', labels: 'sms.status', width: 110 },
    { key: 'sender_account', type: 'text', width: 120 },
    { key: 'created_at', type: 'datetime', search: 'range', table: false, detail: false },
    { key: 'create_time', type: 'datetime' },
    { key: 'finish_time', type: 'datetime', table: false },
  ],
});

/** A send's recipients as the report shows them (GET /sms/sends/:id/recipients). */
export const SMS_RECIPIENT_FIELDS = ['phone', 'bettor_id', 'status', 'failure_reason', 'sms_status', 'cost', 'attempts', 'update_time'] as const;
