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
export const SMS_SEND_STATUSES = ['sending', 'done'] as const;
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
