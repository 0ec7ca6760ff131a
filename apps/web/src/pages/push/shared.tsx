import { Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { precisionDeviceResource, pushDeviceResource, telegramBindingResource } from '@dau/contract/ui';
import { areaView, type FieldView, type Option, type ResourceView } from '../../resources';

/**
 * What the push and Telegram screens share: the lists (declared in the contract, push-resources.ts), the
 * view of a declaration (menu title, `push.describe.<name>`, labels `push.field.<key>`) and the tags.
 */
export { pushDeviceResource, precisionDeviceResource, telegramBindingResource };

export function pushView(def: ResourceView, hints: Record<string, Partial<FieldView>> = {}): ResourceView {
  return areaView('push', def, hints, { title: def.title ?? `menu.${def.name}` });
}

/** The text keys of the codes (literal, so the key checks see them). */
export const PLATFORM_TEXT: Record<string, string> = { android: 'push.platform.android', ios: 'push.platform.ios' };
export const SUBJECT_TEXT: Record<string, string> = { admin: 'push.subject.admin', bettor: 'push.subject.bettor' };
export const textOf = (map: Record<string, string>, code: unknown, t: TFunction) => (map[String(code)] ? t(map[String(code)]!) : String(code ?? '-'));

export const platformOptions = (t: TFunction): Option[] => [
  { value: 'android', label: t('push.platform.android') },
  { value: 'ios', label: t('push.platform.ios') },
];

const RESULT_COLOR: Record<string, string> = { sent: 'success', invalid: 'error', failed: 'warning', sending: 'processing', queued: 'default' };
const RESULT_TEXT = { sent: 'push.result.sent', invalid: 'push.result.invalid', failed: 'push.result.failed', sending: 'push.result.sending', queued: 'push.result.queued' } as const;

export function ResultTag({ status, t }: { status: string; t: TFunction }) {
  const key = RESULT_TEXT[status as keyof typeof RESULT_TEXT];
  return <Tag color={RESULT_COLOR[status] ?? 'default'} data-testid={`push-result-${status}`}>{key ? t(key) : status}</Tag>;
}

/** The labels of the error codes of a push result (FCM's, and ours: IN_DOUBT, DISABLED, NOT_CONFIGURED); literal for the key checks. */
const ERROR_TEXT: Record<string, string> = {
  UNREGISTERED: 'push.errorCode.UNREGISTERED', INVALID_ARGUMENT: 'push.errorCode.INVALID_ARGUMENT', SENDER_ID_MISMATCH: 'push.errorCode.SENDER_ID_MISMATCH',
  QUOTA_EXCEEDED: 'push.errorCode.QUOTA_EXCEEDED', RESOURCE_EXHAUSTED: 'push.errorCode.RESOURCE_EXHAUSTED', UNAVAILABLE: 'push.errorCode.UNAVAILABLE',
  INTERNAL: 'push.errorCode.INTERNAL', NETWORK: 'push.errorCode.NETWORK', THIRD_PARTY_AUTH_ERROR: 'push.errorCode.THIRD_PARTY_AUTH_ERROR',
  PERMISSION_DENIED: 'push.errorCode.PERMISSION_DENIED', UNAUTHENTICATED: 'push.errorCode.UNAUTHENTICATED', invalid_grant: 'push.errorCode.invalid_grant',
  IN_DOUBT: 'push.errorCode.IN_DOUBT', DISABLED: 'push.errorCode.DISABLED', NOT_CONFIGURED: 'push.errorCode.NOT_CONFIGURED',
};

/** An error code of a push result or a device's invalid reason: its label, with the code beside it (what support searches for). */
export function PushErrorText({ code, t }: { code: string | null | undefined; t: TFunction }) {
  if (!code) return <>-</>;
  const key = ERROR_TEXT[code];
  return (
    <span data-testid={`push-error-${code}`}>
      {key ? `${t(key)} ` : null}
      <Typography.Text code>{code}</Typography.Text>
    </span>
  );
}

export function InvalidTag({ invalid, t }: { invalid: unknown; t: TFunction }) {
  return invalid ? <Tag color="error">{t('push.device.invalid')}</Tag> : <Tag color="success">{t('push.device.valid')}</Tag>;
}
