import type { FormInstance } from 'antd';
import { ApiFailure } from '../kit/api';

/**
 * A 400 answer's `details: [{ field, message? }]` shown under the form's inputs (only the fields the form
 * has; a detail without its own message takes the answer's). Returns whether any was shown; the toast
 * tells the rest.
 */
export function applyServerErrors(form: FormInstance, err: unknown, names: readonly string[]): boolean {
  if (!(err instanceof ApiFailure) || !Array.isArray(err.details)) return false;
  const byField = new Map<string, string[]>();
  for (const d of err.details as { field?: unknown; message?: unknown }[]) {
    if (typeof d?.field !== 'string') continue;
    const name = d.field.split('.')[0];
    if (!names.includes(name)) continue;
    const text = typeof d.message === 'string' && d.message ? d.message : err.message;
    byField.set(name, [...(byField.get(name) ?? []), text]);
  }
  form.setFields([...byField].map(([name, errors]) => ({ name, errors })));
  return byField.size > 0;
}
