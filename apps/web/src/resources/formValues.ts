import type { Dayjs } from '../kit/dayjs';
import { wallTimeIso, zonedWallTime } from '../kit/timeZone';
import { formatAmount, parseTshToCents } from '@dau/domain';
import { isEditable } from '@dau/contract/ui';
import type { FieldView, FormMode, Row } from './types';

/** The fields a form shows in a mode (create: editable or create-only; edit: editable). */
export const formFields = (fields: readonly FieldView[], mode: FormMode) => fields.filter((f) => isEditable(f, mode));

function prettyJson(v: unknown): string {
  if (typeof v !== 'string') return v === null || v === undefined ? '' : JSON.stringify(v, null, 2);
  try {
    return JSON.stringify(JSON.parse(v), null, 2);
  } catch {
    return v;
  }
}

/** A record (or the declared defaults, on create) -> the form's values (dayjs dates, TSh amounts, numbers). */
export function toFormValues(fields: readonly FieldView[], mode: FormMode, record?: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of formFields(fields, mode)) {
    // A secret is never read back: its input starts empty.
    if (f.writeOnly) continue;
    const v = record ? record[f.key] : f.default;
    if (v === undefined || v === null) continue;
    switch (f.type) {
      case 'datetime':
        out[f.key] = zonedWallTime(v as string);
        break;
      case 'money':
        // Shillings as text ("1,305.50"): parsed back exactly, never through a float.
        out[f.key] = Number.isSafeInteger(Number(v)) ? formatAmount(Number(v)) : String(v);
        break;
      case 'number':
      case 'odds':
        out[f.key] = typeof v === 'string' && v !== '' ? Number(v) : v;
        break;
      case 'json':
        out[f.key] = prettyJson(v);
        break;
      default:
        out[f.key] = v;
    }
  }
  return out;
}

/**
 * The form's values -> the request body: only the fields the mode may send, locked ones left out.
 * On edit a cleared optional choice or date is sent as null (it clears the value); on create it is left out.
 */
export function fromFormValues(fields: readonly FieldView[], mode: FormMode, values: Record<string, unknown>, record?: Row): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of formFields(fields, mode)) {
    if (f.disabled?.({ mode, record })) continue;
    const v = values[f.key];
    // An empty secret on edit keeps the stored one: not sent.
    if (f.writeOnly && (v === undefined || v === null || v === '')) continue;
    if (v === undefined || v === null) {
      if (mode === 'edit' && !f.required && (f.type === 'enum' || f.type === 'datetime')) body[f.key] = null;
      continue;
    }
    switch (f.type) {
      case 'datetime':
        body[f.key] = wallTimeIso(v as Dayjs);
        break;
      case 'money': {
        // Blank (or, past the form's rules, unreadable) amounts are not sent.
        const cents = parseTshToCents(String(v));
        if (cents === null) continue;
        body[f.key] = cents;
        break;
      }
      case 'switch':
        body[f.key] = !!v;
        break;
      default:
        body[f.key] = v;
    }
  }
  return body;
}
