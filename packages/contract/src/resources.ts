import { defineResource } from './resource.js';

/** System › IP blacklist: addresses or IPv4 ranges (CIDR) refused on every request. */
export const ipBlackResource = defineResource({
  name: 'ip_black',
  page: 'ip_black',
  api: '/system/ip_black',
  kind: 'list',
  defaultSort: '-id',
  actions: ['create', 'edit', 'delete', 'export'],
  duty: { two: ['ip'], twoDelete: true },
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 80 },
    { key: 'ip', type: 'text', search: 'like', editable: true, required: true, maxLength: 64, check: 'ip' },
    { key: 'remark', type: 'text', search: 'like', editable: true, maxLength: 200 },
    { key: 'created_at', type: 'datetime', sortable: true, search: 'range' },
    { key: 'updated_at', type: 'datetime', sortable: true },
  ],
});

/** System › Languages (spec §3 Language). */
export const languageResource = defineResource({
  name: 'language_list',
  page: 'language_list',
  api: '/system/languages',
  kind: 'list',
  defaultSort: '-sort',
  actions: ['create', 'edit', 'delete'],
  duty: {},
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    { key: 'code', type: 'text', search: 'like', createOnly: true, required: true, maxLength: 16, check: 'locale' },
    { key: 'title', type: 'text', search: 'like', editable: true, required: true, maxLength: 64 },
    { key: 'abbreviation', type: 'text', editable: true, maxLength: 16 },
    { key: 'country', type: 'text', editable: true, maxLength: 64 },
    { key: 'phone_code', type: 'text', editable: true, maxLength: 8 },
    { key: 'icon', type: 'image', editable: true, maxLength: 500, table: false },
    { key: 'default_language', type: 'enum', enum: 'default_language', search: 'exact', editable: true, default: 1 },
    { key: 'show_status', type: 'enum', enum: 'language_show_status', search: 'exact', editable: true, default: 2 },
    { key: 'sort', type: 'number', sortable: true, editable: true, min: 0, max: 1_000_000, default: 0 },
    { key: 'updated_at', type: 'datetime', sortable: true },
  ],
});

/** System › Log types (spec §4): names and whether each type is recorded. */
export const logTypeResource = defineResource({
  name: 'log_type',
  page: 'log_type',
  api: '/system/log_types',
  kind: 'list',
  defaultSort: 'id',
  actions: ['edit'],
  duty: {},
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    { key: 'code', type: 'text', search: 'like' },
    { key: 'name', type: 'text', search: 'like', editable: true, required: true, maxLength: 64 },
    { key: 'enabled', type: 'switch', search: 'exact', editable: true },
    { key: 'remarks', type: 'text', editable: true, maxLength: 200 },
  ],
});

/**
 * System › Log configuration: the level of each server logger, applied at once in every process (the
 * server's ServerLogLevels); options are JSON ("Conversion failed"). No retention: the server's log goes
 * to standard output and its keeping is the host's.
 */
export const logConfigResource = defineResource({
  name: 'log_config',
  page: 'log_config',
  api: '/system/log_config',
  kind: 'list',
  defaultSort: 'id',
  actions: ['edit'],
  duty: {},
  fields: [
    { key: 'id', type: 'number', width: 70 },
    { key: 'logger', type: 'text', search: 'like' },
    { key: 'level', type: 'enum', enum: 'log_level', search: 'exact', editable: true, required: true },
    { key: 'options', type: 'json', editable: true, check: 'json', maxLength: 4000, table: false },
    { key: 'remark', type: 'text', editable: true, maxLength: 200 },
    { key: 'updated_at', type: 'datetime' },
  ],
});

/** System › Site configuration (spec §3 Website info): title, icon, theme colour. */
export const configurationResource = defineResource({
  name: 'configuration',
  page: 'configuration',
  api: '/system/configuration',
  kind: 'singleton',
  actions: ['edit'],
  duty: {},
  fields: [
    { key: 'title', type: 'text', editable: true, required: true, maxLength: 64 },
    { key: 'icon', type: 'image', editable: true, maxLength: 500 },
    { key: 'logo', type: 'image', editable: true, maxLength: 500 },
    { key: 'color', type: 'color', editable: true, required: true, check: 'color' },
    { key: 'updated_at', type: 'datetime' },
  ],
});

/** System › Default subscriber config (spec §3). */
export const subscriberConfigResource = defineResource({
  name: 'subscriber_config_default',
  page: 'subscriber_config_default',
  api: '/system/subscriber_config',
  kind: 'singleton',
  actions: ['edit'],
  duty: { two: ['share_ratio', 'login_failure_limit', 'failure_window_minutes', 'session_idle_minutes', 'session_absolute_hours'] },
  fields: [
    { key: 'share_ratio', type: 'number', editable: true, required: true, min: 0, max: 1 },
    { key: 'online_check', type: 'switch', editable: true },
    { key: 'login_failure_limit', type: 'number', editable: true, required: true, min: 1, max: 100 },
    { key: 'failure_window_minutes', type: 'number', editable: true, required: true, min: 1, max: 1440 },
    { key: 'session_idle_minutes', type: 'number', editable: true, required: true, min: 5, max: 1440 },
    { key: 'session_absolute_hours', type: 'number', editable: true, required: true, min: 1, max: 168 },
    { key: 'allow_registration', type: 'switch', editable: true },
    { key: 'no_registration_tip', type: 'textarea', editable: true, maxLength: 500 },
    { key: 'updated_at', type: 'datetime' },
  ],
});

/** System › System log: the audit trail, read-only. */
export const logResource = defineResource({
  name: 'log',
  page: 'log',
  api: '/system/logs',
  kind: 'list',
  defaultSort: '-id',
  actions: ['export'],
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 90 },
    { key: 'type', type: 'enum', enum: 'log_type', search: 'exact', width: 150 },
    { key: 'content', type: 'text', search: 'like' },
    { key: 'account', type: 'text', search: 'exact', width: 120 },
    { key: 'ip', type: 'text', search: 'exact', width: 130 },
    { key: 'status', type: 'number', search: 'exact', width: 80 },
    { key: 'action', type: 'text', table: false },
    { key: 'server_ip', type: 'text', table: false },
    { key: 'source', type: 'text', table: false },
    { key: 'user_agent', type: 'text', table: false },
    { key: 'before', type: 'json', table: false },
    { key: 'after', type: 'json', table: false },
    { key: 'created_at', type: 'datetime', sortable: true, search: 'range', width: 180 },
  ],
});

export const SYSTEM_RESOURCES = [
  ipBlackResource, languageResource, logTypeResource, logConfigResource, configurationResource, subscriberConfigResource, logResource,
] as const;

/** Betting › Payment settings (pay_config): the limits and timings of recharges and withdrawals; one record. */
export const payConfigResource = defineResource({
  name: 'pay_config',
  page: 'pay_config',
  api: '/money/pay_config',
  kind: 'singleton',
  actions: ['edit'],
  duty: { two: ['min_recharge', 'min_withdrawal', 'max_withdrawal', 'large_withdrawal'] },
  fields: [
    { key: 'min_recharge', type: 'money', editable: true, required: true, min: 1, max: 100_000_000_00 },
    { key: 'min_withdrawal', type: 'money', editable: true, required: true, min: 1, max: 100_000_000_00 },
    { key: 'max_withdrawal', type: 'money', editable: true, required: true, min: 1, max: 100_000_000_00 },
    /** Withdrawals above this need a second, different administrator's approval. */
    { key: 'large_withdrawal', type: 'money', editable: true, required: true, min: 1, max: 100_000_000_00 },
    /** Pending longer than this: listed in the stuck queue for re-query. */
    { key: 'stuck_after_minutes', type: 'number', editable: true, required: true, min: 1, max: 1440 },
    /** A disbursement with no outcome after this long is timed out and its money returned (after a re-query). */
    { key: 'disburse_timeout_minutes', type: 'number', editable: true, required: true, min: 5, max: 10_080 },
    { key: 'updated_at', type: 'datetime' },
  ],
});
