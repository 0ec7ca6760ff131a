import { describe, expect, it } from 'vitest';
import { isStopRequest, smsCost, smsEncoding, smsQuote, smsSegments, smsUnits } from '../src/sms';

describe('SMS encoding, segments and cost', () => {
  it('English and Swahili fit GSM-7; Chinese needs UCS-2', () => {
    expect(smsEncoding('Your bet has won! Check your balance.')).toBe('gsm7');
    expect(smsEncoding('Habari! Umeshinda dau lako. Angalia salio lako sasa.')).toBe('gsm7');
    expect(smsEncoding('您的投注已中奖')).toBe('ucs2');
    expect(smsEncoding('curly “quotes”')).toBe('ucs2');
    expect(smsEncoding('price 10€ [bonus]')).toBe('gsm7');
  });

  it('extension characters count two septets', () => {
    expect(smsUnits('abc')).toBe(3);
    expect(smsUnits('a€b')).toBe(4);
    expect(smsUnits('{}[]')).toBe(8);
  });

  it('160/153 for GSM-7 and 70/67 for UCS-2', () => {
    expect(smsSegments('')).toBe(0);
    expect(smsSegments('a'.repeat(160))).toBe(1);
    expect(smsSegments('a'.repeat(161))).toBe(2);
    expect(smsSegments('a'.repeat(306))).toBe(2);
    expect(smsSegments('a'.repeat(307))).toBe(3);
    expect(smsSegments('中'.repeat(70))).toBe(1);
    expect(smsSegments('中'.repeat(71))).toBe(2);
    expect(smsSegments('中'.repeat(134))).toBe(2);
    expect(smsSegments('中'.repeat(135))).toBe(3);
    // 159 septets + one extension character = 161: two parts.
    expect(smsSegments('a'.repeat(159) + '€')).toBe(2);
    // An escape pair is never split: 152 + '€' does not fit in the first part of 153.
    expect(smsSegments('a'.repeat(152) + '€' + 'a'.repeat(152))).toBe(3);
  });

  it('an emoji (surrogate pair) is never split across UCS-2 parts', () => {
    expect(smsSegments('a'.repeat(66) + '😀' + 'a'.repeat(10))).toBe(2);
    expect(smsSegments('a'.repeat(68) + '😀')).toBe(1);
    expect(smsSegments('a'.repeat(69) + '😀')).toBe(2);
  });

  it('cost = segments × recipients × cost per segment', () => {
    expect(smsCost(2, 1000, 2500)).toBe(5_000_000);
    const sw = smsQuote('Habari, karibu tena! Weka dau lako leo upate bonasi ya asilimia kumi.', 10, 2500);
    expect(sw).toMatchObject({ encoding: 'gsm7', segments: 1, cost_cents: 25_000 });
    const zh = smsQuote('欢迎回来！今天投注即可获得百分之十的奖金。' + '欢迎回来！今天投注即可获得百分之十的奖金，机会难得，请尽快登录您的账户查看详情并参与活动。名额有限，先到先得，祝您好运连连。', 10, 2500);
    expect(zh.encoding).toBe('ucs2');
    expect(zh.segments).toBe(2);
    expect(zh.cost_cents).toBe(50_000);
  });

  it('STOP replies in English and Swahili', () => {
    for (const t of ['STOP', ' stop ', 'Stop please', 'ACHA', 'sitisha']) expect(isStopRequest(t)).toBe(true);
    for (const t of ['', 'hello', 'stopwatch', 'acha nikuambie'.slice(5)]) expect(isStopRequest(t)).toBe(false);
  });
});
