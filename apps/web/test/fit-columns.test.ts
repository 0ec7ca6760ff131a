import { describe, expect, it } from 'vitest';
import { ACTIONS_WIDTH, SELECTION_WIDTH, columnWidth, fitColumns } from '../src/resources/fitColumns';
import type { FieldView } from '../src/resources/types';

/** The administrators list as declared (adminFields.tsx), reduced to what fitting reads. */
const ADMIN_FIELDS: FieldView[] = [
  { key: 'id', type: 'number', width: 70 },
  { key: 'account', type: 'text' },
  { key: 'password', type: 'text', table: false },
  { key: 'name', type: 'text' },
  { key: 'phone', type: 'text' },
  { key: 'role_id', type: 'enum', keep: true },
  { key: 'superior_id', type: 'enum' },
  { key: 'share_ratio', type: 'number' },
  { key: 'balance', type: 'money' },
  { key: 'invitation_code', type: 'text' },
  { key: 'online_status', type: 'enum' },
  { key: 'member_expiry', type: 'datetime' },
  { key: 'login_time', type: 'datetime' },
  { key: 'register_time', type: 'datetime' },
  { key: 'google_bound', type: 'enum' },
  { key: 'disabled', type: 'enum' },
] as FieldView[];

const shown = (fields: FieldView[], width: number) => {
  const hidden = new Set(fitColumns(fields, width, ACTIONS_WIDTH + SELECTION_WIDTH));
  return fields.filter((f) => f.table !== false && !hidden.has(f.key)).map((f) => f.key);
};

describe('columns that fit the list', () => {
  it('keep what names the row and its state, and give up flags first', () => {
    // The table's width on a 1280 px screen: the 210 px menu and the page's padding taken off.
    const keys = shown(ADMIN_FIELDS, 1000);
    expect(keys).toContain('id');
    expect(keys).toContain('account');
    expect(keys).toContain('role_id');
    expect(keys).toContain('online_status');
    expect(keys).toContain('disabled');
    expect(keys).not.toContain('google_bound');
    const used = ADMIN_FIELDS.filter((f) => keys.includes(f.key)).reduce((s, f) => s + columnWidth(f), ACTIONS_WIDTH + SELECTION_WIDTH);
    expect(used).toBeLessThanOrEqual(1000);
  });

  it('hides nothing when every column fits', () => {
    expect(fitColumns(ADMIN_FIELDS, 10_000)).toEqual([]);
  });
});
