import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ipMatches,
  parseIpAddress,
  parseIpOrCidr,
  validateAccount,
  validatePassword,
  validatePasswordChange,
  validatePhone,
  validateRegistration,
  validateShareRatio,
} from '../src';

describe('validateShareRatio', () => {
  it.each([
    [0, 0],
    [1, 1],
    [0.5, 0.5],
    [12.3456, 12.3456],
    ['0', 0],
    [' 0.25 ', 0.25],
    ['100', 100],
    ['3.1415', 3.1415],
    [-0, 0],
  ])('accepts %j', (input, value) => {
    expect(validateShareRatio(input)).toEqual({ ok: true, value });
  });

  it.each([-1, -0.0001, 0.00001, 1.23456, Number.NaN, Number.POSITIVE_INFINITY, '-1', '1.23456', 'abc', '', '1e3', '0x1', null, undefined, {}])(
    'rejects %j with the spec message code',
    (input) => {
      expect(validateShareRatio(input)).toEqual({ ok: false, code: 'SHARE_RATIO_INVALID' });
    },
  );
});

describe('passwords and accounts', () => {
  it('requires a password of at least 10 characters', () => {
    expect(validatePassword('')).toEqual({ ok: false, code: 'LOGIN_PASSWORD_REQUIRED' });
    expect(validatePassword(undefined)).toEqual({ ok: false, code: 'LOGIN_PASSWORD_REQUIRED' });
    expect(validatePassword('', 'NEW_PASSWORD_REQUIRED')).toEqual({ ok: false, code: 'NEW_PASSWORD_REQUIRED' });
    expect(validatePassword('1234567')).toEqual({ ok: false, code: 'PASSWORD_TOO_WEAK' });
    expect(validatePassword('        ')).toEqual({ ok: false, code: 'PASSWORD_TOO_WEAK' });
    expect(validatePassword('12345678')).toEqual({ ok: false, code: 'PASSWORD_TOO_WEAK' });
    expect(validatePassword('123456789')).toEqual({ ok: false, code: 'PASSWORD_TOO_WEAK' });
    expect(validatePassword('tz-kilimo-9')).toEqual({ ok: true, value: 'tz-kilimo-9' });
    expect(validatePassword('😀😀😀😀😀😀😀😀😀')).toEqual({ ok: false, code: 'PASSWORD_TOO_WEAK' }); // 9 code points
    expect(validatePassword('x'.repeat(129))).toEqual({ ok: false, code: 'PASSWORD_TOO_LONG' });
  });

  it('accepts accounts of 3 to 32 of [A-Za-z0-9_.-]', () => {
    expect(validateAccount('admin')).toEqual({ ok: true, value: 'admin' });
    expect(validateAccount('  agent_01.tz-x ')).toEqual({ ok: true, value: 'agent_01.tz-x' });
    expect(validateAccount('a'.repeat(32))).toEqual({ ok: true, value: 'a'.repeat(32) });
    expect(validateAccount('')).toEqual({ ok: false, code: 'LOGIN_USERNAME_REQUIRED' });
    expect(validateAccount(42)).toEqual({ ok: false, code: 'LOGIN_USERNAME_REQUIRED' });
    for (const bad of ['ab', 'a'.repeat(33), 'john doe', 'bad!', 'ümlaut', 'a/b']) {
      expect(validateAccount(bad), bad).toEqual({ ok: false, code: 'ACCOUNT_INVALID' });
    }
  });

  it('checks a password change in the spec order', () => {
    const base = { oldPassword: 'old-secret', newPassword: 'new-secret', confirmPassword: 'new-secret' };
    expect(validatePasswordChange(base)).toEqual({ ok: true, value: { oldPassword: 'old-secret', newPassword: 'new-secret' } });
    expect(validatePasswordChange({ ...base, oldPassword: '' })).toEqual({ ok: false, code: 'OLD_PASSWORD_REQUIRED' });
    expect(validatePasswordChange({ ...base, newPassword: '' })).toEqual({ ok: false, code: 'NEW_PASSWORD_REQUIRED' });
    expect(validatePasswordChange({ ...base, newPassword: 'short', confirmPassword: 'short' })).toEqual({
      ok: false,
      code: 'PASSWORD_TOO_WEAK',
    });
    expect(validatePasswordChange({ ...base, confirmPassword: 'new-secreT' })).toEqual({
      ok: false,
      code: 'PASSWORDS_INCONSISTENT',
    });
  });

  it('checks a registration', () => {
    const base = { account: 'agent01', password: 'long-enough', confirmPassword: 'long-enough' };
    expect(validateRegistration(base)).toEqual({ ok: true, value: { account: 'agent01', password: 'long-enough' } });
    expect(validateRegistration({ ...base, account: '' })).toEqual({ ok: false, code: 'LOGIN_USERNAME_REQUIRED' });
    expect(validateRegistration({ ...base, password: '' })).toEqual({ ok: false, code: 'LOGIN_PASSWORD_REQUIRED' });
    expect(validateRegistration({ ...base, confirmPassword: 'other-one' })).toEqual({
      ok: false,
      code: 'REGISTER_PASSWORDS_INCONSISTENT',
    });
    expect(validateRegistration({ account: 'agent0001', password: 'agent0001', confirmPassword: 'agent0001' })).toEqual({
      ok: false,
      code: 'REGISTER_ACCOUNT_EQUALS_PASSWORD',
    });
    expect(validateRegistration({ ...base, password: 'short', confirmPassword: 'short' })).toEqual({
      ok: false,
      code: 'PASSWORD_TOO_WEAK',
    });
  });
});

describe('validatePhone', () => {
  it.each([
    ['255712345678', '255712345678'],
    ['0712345678', '255712345678'],
    ['+255 712 345 678', '255712345678'],
    ['0655-123-456', '255655123456'],
    [' 255621000111 ', '255621000111'],
  ])('normalizes %j to %s', (input, value) => {
    expect(validatePhone(input)).toEqual({ ok: true, value });
  });

  it.each(['', '712345678', '25571234567', '2557123456789', '071234567', '0222123456', '254712345678', '07123456a8', '++255712345678', null])(
    'rejects %j',
    (input) => {
      expect(validatePhone(input)).toEqual({ ok: false, code: 'PHONE_INVALID' });
    },
  );

  it('keeps every valid national number equal to its international form', () => {
    fc.assert(
      fc.property(fc.constantFrom('6', '7'), fc.stringMatching(/^\d{8}$/), (first, rest) => {
        const national = validatePhone(`0${first}${rest}`);
        const international = validatePhone(`255${first}${rest}`);
        expect(national).toEqual(international);
        expect(national).toEqual({ ok: true, value: `255${first}${rest}` });
      }),
    );
  });
});

describe('IP blacklist entries', () => {
  it.each([
    ['10.0.0.1', '10.0.0.1', 4, 32],
    [' 192.168.1.7/24 ', '192.168.1.0/24', 4, 24],
    ['0.0.0.0/0', '0.0.0.0/0', 4, 0],
    ['2001:DB8:0:0:0:0:0:1', '2001:db8::1', 6, 128],
    ['2001:db8::/32', '2001:db8::/32', 6, 32],
    ['::1', '::1', 6, 128],
    ['::', '::', 6, 128],
    ['fe80::1:0:0:1', 'fe80::1:0:0:1', 6, 128],
    ['2001:0db8:0000:0000:1:0:0:1', '2001:db8::1:0:0:1', 6, 128],
    ['::ffff:203.0.113.9', '203.0.113.9', 4, 32],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221', 6, 128],
  ])('parses %j as %s', (input, text, version, prefix) => {
    const r = parseIpOrCidr(input);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.text).toBe(text);
      expect(r.value.version).toBe(version);
      expect(r.value.prefix).toBe(prefix);
    }
  });

  it.each([
    '',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3.4/33',
    '1.2.3.4/',
    '1.2.3.4/-1',
    '1.2.3.4/08',
    'a.b.c.d',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '2001:db8::g',
    '12345::1',
    'fe80::1%eth0',
    '::1/129',
    'localhost',
    null,
  ])('rejects %j', (input) => {
    expect(parseIpOrCidr(input)).toEqual({ ok: false, code: 'IP_INVALID' });
  });

  it('refuses a range where a single address is expected', () => {
    expect(parseIpAddress('10.0.0.0/8').ok).toBe(false);
    expect(parseIpAddress('10.0.0.1').ok).toBe(true);
  });

  it('matches IPv4 addresses and CIDR ranges', () => {
    expect(ipMatches('10.1.2.3', '10.0.0.0/8')).toBe(true);
    expect(ipMatches('11.1.2.3', '10.0.0.0/8')).toBe(false);
    expect(ipMatches('192.168.1.255', '192.168.1.0/24')).toBe(true);
    expect(ipMatches('192.168.2.0', '192.168.1.0/24')).toBe(false);
    expect(ipMatches('172.16.5.4', '172.16.0.0/12')).toBe(true);
    expect(ipMatches('172.32.0.1', '172.16.0.0/12')).toBe(false);
    expect(ipMatches('8.8.8.8', '0.0.0.0/0')).toBe(true);
    expect(ipMatches('8.8.8.8', '8.8.8.8')).toBe(true);
    expect(ipMatches('8.8.8.9', '8.8.8.8')).toBe(false);
  });

  it('matches IPv6 addresses exactly, in any spelling, and IPv6 ranges', () => {
    expect(ipMatches('2001:db8:0:0:0:0:0:1', '2001:DB8::1')).toBe(true);
    expect(ipMatches('2001:db8::2', '2001:db8::1')).toBe(false);
    expect(ipMatches('2001:db8:abcd::1', '2001:db8::/32')).toBe(true);
    expect(ipMatches('2001:db9::1', '2001:db8::/32')).toBe(false);
  });

  it('matches an IPv4-mapped client address against IPv4 entries, and never across versions', () => {
    expect(ipMatches('::ffff:10.0.0.5', '10.0.0.0/8')).toBe(true);
    expect(ipMatches('::ffff:127.0.0.1', '127.0.0.1')).toBe(true);
    expect(ipMatches('::1', '127.0.0.1')).toBe(false);
    expect(ipMatches('10.0.0.1', '::/0')).toBe(false);
  });

  it('matches nothing for garbage', () => {
    expect(ipMatches('not-an-ip', '0.0.0.0/0')).toBe(false);
    expect(ipMatches('10.0.0.1', 'garbage')).toBe(false);
    expect(ipMatches('10.0.0.0/8', '10.0.0.0/8')).toBe(false);
  });

  it('accepts a parsed entry', () => {
    const entry = parseIpOrCidr('10.20.0.0/16');
    if (!entry.ok) throw new Error('expected a valid entry');
    expect(ipMatches('10.20.30.40', entry.value)).toBe(true);
    expect(ipMatches('10.21.30.40', entry.value)).toBe(false);
  });

  it('agrees with integer arithmetic for every IPv4 address and prefix', () => {
    const octet = fc.integer({ min: 0, max: 255 });
    const ip = fc.tuple(octet, octet, octet, octet);
    const toInt = (o: number[]) => ((o[0]! << 24) | (o[1]! << 16) | (o[2]! << 8) | o[3]!) >>> 0;
    fc.assert(
      fc.property(ip, ip, fc.integer({ min: 0, max: 32 }), (a, b, prefix) => {
        const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
        const expected = ((toInt(a) & mask) >>> 0) === ((toInt(b) & mask) >>> 0);
        expect(ipMatches(a.join('.'), `${b.join('.')}/${prefix}`)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('round-trips canonical IPv6 text', () => {
    fc.assert(
      fc.property(fc.ipV6(), (addr) => {
        const first = parseIpOrCidr(addr);
        expect(first.ok).toBe(true);
        if (!first.ok) return;
        const again = parseIpOrCidr(first.value.text);
        expect(again).toEqual(first);
        expect(ipMatches(addr, first.value.text)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
