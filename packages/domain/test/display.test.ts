import { describe, expect, it } from 'vitest';
import {
  abnormalBetFlagFor,
  archiveTypeFor,
  enumDisplayLabel,
  enumLabel,
  isBettableOfferStatus,
  isRefundedOutcome,
  outcomeStatusDisplay,
  typeFlagAllows,
} from '../src';

describe('outcome status display (spec §4)', () => {
  it('shows 1, 4 and 5 as pending', () => {
    expect([1, 4, 5].map((id) => outcomeStatusDisplay(id))).toEqual(['pending', 'pending', 'pending']);
  });

  it('shows 8 and 9 as return', () => {
    expect(outcomeStatusDisplay(8)).toBe('return');
    expect(outcomeStatusDisplay(9)).toBe('return');
  });

  it('shows the others as themselves', () => {
    expect(outcomeStatusDisplay(2)).toBe('won');
    expect(outcomeStatusDisplay(3)).toBe('lost');
    expect(outcomeStatusDisplay(6)).toBe('half_won');
    expect(outcomeStatusDisplay(7)).toBe('half_lost');
    expect(outcomeStatusDisplay(10)).toBe('admin_cancelled');
    expect(outcomeStatusDisplay(11)).toBeUndefined();
    expect(outcomeStatusDisplay(0)).toBeUndefined();
  });

  it('labels the display values in every language', () => {
    expect(enumDisplayLabel('outcome_status', 4, 'en-US')).toBe('Pending');
    expect(enumDisplayLabel('outcome_status', 5, 'zh-CN')).toBe('待开奖');
    expect(enumDisplayLabel('outcome_status', 9, 'en-US')).toBe('Return');
    expect(enumDisplayLabel('outcome_status', 8, 'sw-KE')).toBe('Imerejeshwa');
    // the raw label keeps the real meaning
    expect(enumLabel('outcome_status', 8, 'en-US')).toBe('Void (refunded)');
    expect(enumDisplayLabel('outcome_status', 10, 'en-US')).toBe('Cancelled by admin (refunded)');
    expect(enumDisplayLabel('event_status', 6, 'en-US')).toBe('Walkover');
  });
});

describe('derived facts', () => {
  it('knows which outcomes refund the stake', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].filter(isRefundedOutcome)).toEqual([8, 9, 10]);
  });

  it('knows which betting offer statuses accept bets', () => {
    expect([1, 2, 3, 4, 5, 6, 7].filter(isBettableOfferStatus)).toEqual([1, 2]);
  });

  it('applies the type flag to pre-match and in-play', () => {
    expect([0, 1, 2, 3].map((f) => typeFlagAllows(f, 'pre_match'))).toEqual([false, true, true, false]);
    expect([0, 1, 2, 3].map((f) => typeFlagAllows(f, 'in_play'))).toEqual([false, true, false, true]);
  });

  it('flags bets without a result at 120 min, 150 min, 5 h and 24 h after match time', () => {
    expect(abnormalBetFlagFor(0)).toBe(0);
    expect(abnormalBetFlagFor(119)).toBe(0);
    expect(abnormalBetFlagFor(120)).toBe(1);
    expect(abnormalBetFlagFor(149)).toBe(1);
    expect(abnormalBetFlagFor(150)).toBe(2);
    expect(abnormalBetFlagFor(299)).toBe(2);
    expect(abnormalBetFlagFor(300)).toBe(3);
    expect(abnormalBetFlagFor(1439)).toBe(3);
    expect(abnormalBetFlagFor(1440)).toBe(4);
    expect(abnormalBetFlagFor(100_000)).toBe(4);
    expect(abnormalBetFlagFor(Number.NaN)).toBe(0);
  });

  it('splits archives at 30 days', () => {
    const now = Date.UTC(2025, 5, 30, 12);
    const day = 86_400_000;
    expect(archiveTypeFor(now - 29 * day, now)).toBe(1);
    expect(archiveTypeFor(new Date(now - 30 * day), new Date(now))).toBe(1);
    expect(archiveTypeFor(now - 30 * day - 1, now)).toBe(2);
    expect(archiveTypeFor(now - 400 * day, now)).toBe(2);
  });
});
