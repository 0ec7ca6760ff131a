import type { FormInstance } from 'antd';
import { fieldErrors } from '../app/messages';

/**
 * A 400 answer's `details: [{ field, message }]` shown under the form's inputs (only the fields the form
 * has). Returns whether any was shown; the toast tells the rest.
 */
export function applyServerErrors(form: FormInstance, err: unknown, names: readonly string[]): boolean {
  const errors = fieldErrors(err)
    .map((e) => ({ ...e, name: e.name.split('.')[0] }))
    .filter((e) => names.includes(e.name));
  form.setFields(errors);
  return errors.length > 0;
}
