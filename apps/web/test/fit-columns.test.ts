import { describe, expect, it } from 'vitest';
import { ACTIONS_WIDTH, SELECTION_WIDTH, columnWidth, fitColumns } from '../src/resources/fitColumns';
import type { FieldView } from '../src/resources/types';
import { billResource, jackpotTicketListResource, matchListResource, withdrawalResource, type ResourceDef } from '@dau/contract/ui';

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

/** The withdrawals review queue (money-resources.ts), reduced to what fitting reads. */
const WITHDRAWAL_FIELDS: FieldView[] = [
  { key: 'id', type: 'number', width: 80 },
  { key: 'serial_number', type: 'text', width: 200 },
  { key: 'user_id', type: 'number', width: 90 },
  { key: 'user_name', type: 'text' },
  { key: 'phone', type: 'text', width: 140 },
  { key: 'amount', type: 'money' },
  { key: 'pay_type', type: 'enum' },
  { key: 'status', type: 'enum' },
  { key: 'pay_status', type: 'enum' },
  { key: 'carrier_order_number', type: 'text' },
  { key: 'agent_account', type: 'text' },
  { key: 'first_approver', type: 'text' },
  { key: 'refuse_reason', type: 'text', width: 220 },
  { key: 'create_time', type: 'datetime' },
  { key: 'pay_time', type: 'datetime' },
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
    // When each request came: a review queue is read by it.
    expect(shown(WITHDRAWAL_FIELDS, 1000)).toEqual(expect.arrayContaining(['id', 'serial_number', 'status', 'pay_status', 'create_time']));
    const used = ADMIN_FIELDS.filter((f) => keys.includes(f.key)).reduce((s, f) => s + columnWidth(f), ACTIONS_WIDTH + SELECTION_WIDTH);
    expect(used).toBeLessThanOrEqual(1000);
  });

  it('hides nothing when every column fits', () => {
    expect(fitColumns(ADMIN_FIELDS, 10_000)).toEqual([]);
  });
});

describe('the lists an operator reads at 1280 px keep what identifies a row (issue 23)', () => {
  // The table's width on a 1280 px screen: the menu and the page's padding taken off.
  const WIDTH = 1000;
  const cases: [ResourceDef, string[]][] = [
    [withdrawalResource, ['phone', 'amount', 'pay_type', 'status', 'create_time']],
    [billResource, ['phone', 'type', 'amount', 'balance', 'update_time']],
    [matchListResource, ['league_name', 'home_team', 'away_team', 'start_time', 'match_status', 'is_suspended']],
    [jackpotTicketListResource, ['identifier', 'phone', 'stake', 'status', 'create_time']],
  ];
  for (const [def, identifying] of cases) {
    it(`${def.name}: ${identifying.join(', ')}`, () => {
      const keys = shown(def.fields as FieldView[], WIDTH);
      expect(keys).toEqual(expect.arrayContaining(identifying));
      const used = def.fields.filter((f) => keys.includes(f.key)).reduce((s, f) => s + columnWidth(f), ACTIONS_WIDTH + SELECTION_WIDTH);
      expect(used, 'fits the width').toBeLessThanOrEqual(WIDTH + SELECTION_WIDTH);
    });
  }

  it('a list that declares what identifies its rows gives up its first column and serial number before them', () => {
    // The console widens the withdrawal state column for its marks (WithdrawalListPage).
    const keys = shown(withdrawalResource.fields.map((f) => (f.key === 'status' ? { ...f, width: 240 } : f)) as FieldView[], WIDTH);
    expect(keys).toEqual(expect.arrayContaining(['phone', 'amount', 'pay_type', 'status', 'create_time']));
    expect(keys).not.toContain('id');
    expect(keys).not.toContain('serial_number');
  });
});
