import { useCallback } from 'react';
import type { Locale, MessageCode, MessageParams } from '@dau/domain';
import { isSpecCode, specMessage } from './spec-messages';
import { ApiFailure } from './api';
import { usePrefs } from './prefs';

/**
 * The spec's user-visible messages come from the domain package in the operator's language:
 * `const msg = useMsg(); msg('LOGIN_FAILED')`.
 */
export function useMsg() {
  const { language } = usePrefs();
  return useCallback((code: MessageCode, params?: MessageParams) => specMessage(code, language, params), [language]);
}

/**
 * What to tell the operator about a failed call: the server's own message (it answers in the language of
 * the `x-locale` header), the spec text of its code, or "Failed to load..." when the server was not reached.
 */
export function errorText(err: unknown, locale: Locale, fallback: MessageCode = 'INTERNAL'): string {
  if (err instanceof ApiFailure) {
    if (err.status === 0) return specMessage('LOAD_FAILED', locale);
    if (err.message && err.message !== 'Internal Server Error') return err.message;
    if (isSpecCode(err.code)) return specMessage(err.code, locale);
  }
  return specMessage(fallback, locale);
}

/** `const errText = useErrorText(); errText(e)` */
export function useErrorText() {
  const { language } = usePrefs();
  return useCallback((err: unknown, fallback?: MessageCode) => errorText(err, language, fallback), [language]);
}

/** Field errors of a 400 answer ({ field, message }[]) for antd `form.setFields`. */
export function fieldErrors(err: unknown): { name: string; errors: string[] }[] {
  if (!(err instanceof ApiFailure) || !Array.isArray(err.details)) return [];
  return (err.details as { field?: unknown; message?: unknown }[])
    .filter((d) => typeof d?.field === 'string' && typeof d?.message === 'string')
    .map((d) => ({ name: d.field as string, errors: [d.message as string] }));
}
