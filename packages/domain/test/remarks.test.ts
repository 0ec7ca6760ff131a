import { describe, expect, it } from 'vitest';
import { BILL_REMARK_KINDS, BILL_REMARK_WORDS, SUPPORTED_LOCALES, billRemarkTemplate, billRemarkText } from '../src';

/** Bill remarks (issue 23): a kind and its parameters, read in the reader's language. */
describe('billRemarkText', () => {
  it('renders a kind in each language, with the words of its parameters translated', () => {
    const params = { order_no: 'O2612040001', change: 'cancelled' };
    expect(billRemarkText('order_change', params, '', 'en-US')).toBe('Order O2612040001: cancelled');
    expect(billRemarkText('order_change', params, '', 'sw-KE')).toBe('Oda O2612040001: imeghairiwa');
    expect(billRemarkText('order_change', params, '', 'zh-CN')).toBe('订单 O2612040001：已取消');
    const part = { order_no: 'O1', change: 'rolled_back', part: 'inviter_reward' };
    expect(billRemarkText('order_change_part', part, null, 'en-US')).toBe('Order O1: settlement rolled back, inviter reward');
    expect(billRemarkText('order_change_part', part, null, 'sw-KE')).toBe('Oda O1: uamuzi umetenguliwa, zawadi ya mwalikaji');
    expect(billRemarkText('jackpot_change', { issue: 'RV001', ticket: 7, change: 'prize', version: 2 }, '', 'zh-CN')).toBe('奖池 RV001，彩票 7：奖金（第 2 版）');
    // Any tag of a language; an unknown one is en-US.
    expect(billRemarkText('recharge', { serial: 'R1' }, '', 'sw')).toBe('Kuweka pesa R1');
    expect(billRemarkText('recharge', { serial: 'R1' }, '', 'fr-FR')).toBe('Recharge R1');
  });

  it("puts an admin's free text after the kind's text; a row without a kind shows its text", () => {
    expect(billRemarkText('withdrawal_refused', { serial: 'W1' }, 'Wrong number', 'en-US')).toBe('Withdrawal W1 refused, amount returned — Wrong number');
    expect(billRemarkText('withdrawal_refused', { serial: 'W1' }, 'Wrong number', 'zh-CN')).toBe('提现 W1 被拒绝，金额已退回：Wrong number');
    expect(billRemarkText(null, null, 'order O1: settled', 'zh-CN')).toBe('order O1: settled');
    expect(billRemarkText(undefined, undefined, undefined, 'sw-KE')).toBe('');
    // A kind this console does not know yet: its text, never an error.
    expect(billRemarkText('future_kind', { a: 1 }, 'as stored', 'en-US')).toBe('as stored');
    // A missing parameter stays visible as its name; a word outside the vocabulary as it is.
    expect(billRemarkText('withdrawal', {}, '', 'en-US')).toBe('Withdrawal {serial}');
    expect(billRemarkText('order_change', { order_no: 'O1', change: 'something_new' }, '', 'en-US')).toBe('Order O1: something_new');
    expect(billRemarkText('order_change', 'not an object', '', 'en-US')).toBe('Order {order_no}: {change}');
  });

  it('has every kind in every language with the same parameters, and every word translated', () => {
    const names = (s: string) => [...s.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]).sort();
    for (const kind of BILL_REMARK_KINDS) {
      const en = names(billRemarkTemplate(kind, 'en-US'));
      for (const locale of SUPPORTED_LOCALES) expect(names(billRemarkTemplate(kind, locale)), `${kind} ${locale}`).toEqual(en);
    }
    // Words are shown translated, never as their key (a key with an underscore would show through).
    for (const [param, words] of Object.entries(BILL_REMARK_WORDS)) {
      for (const word of words) {
        const params = { order_no: 'O', change: 'settled', part: 'bonus_funds', [param]: word };
        for (const locale of SUPPORTED_LOCALES) expect(billRemarkText('order_change_part', params, '', locale), `${param}.${word} ${locale}`).not.toMatch(/[a-z]_[a-z]/);
      }
    }
  });
});
