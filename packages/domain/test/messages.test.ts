import { describe, expect, it } from 'vitest';
import { MESSAGE_CODES, MESSAGES, SUPPORTED_LOCALES, interpolate, isMessageCode, message, type MessageCode } from '../src';

/** English texts fixed by the spec (§5, §8) or by the brief, word for word. */
const EXACT: Partial<Record<MessageCode, string>> = {
  PARAM_INVALID: 'The parameter is invalid',
  LOGIN_USERNAME_REQUIRED: 'Please input Username',
  LOGIN_PASSWORD_REQUIRED: 'Please enter password',
  LOGIN_FAILED: 'Login failed',
  GOOGLE_CODE_REQUIRED: 'Please enter the Google verification code',
  GOOGLE_CODE_INVALID: 'The Google verification code is wrong',
  ACCOUNT_LOCKED: 'Too many failed sign-ins. The account is locked for {minutes} minute(s).',
  ACCOUNT_DISABLED: 'This account is disabled',
  IP_BLACKLISTED: 'Access from your IP address is blocked',
  UNAUTHORIZED: 'Please sign in again',
  FORBIDDEN: 'You do not have permission for this action',
  NOT_FOUND: 'Not found',
  INTERNAL: 'Something went wrong on the server. Please try again; if it keeps happening, contact an administrator.',
  REGISTER_DISABLED: 'Registration is disabled',
  REGISTER_PASSWORDS_INCONSISTENT: 'Two passwords are inconsistent',
  REGISTER_ACCOUNT_EQUALS_PASSWORD: 'The account number and password are not allowed to be the same',
  OLD_PASSWORD_REQUIRED: 'Please enter old password',
  NEW_PASSWORD_REQUIRED: 'Please enter a new password',
  PASSWORDS_INCONSISTENT: 'The passwords entered twice are inconsistent, please try again.',
  FORGOT_PASSWORD: 'Please contact an administrator to reset your password',
  ROLE_NODE_NAME_EMPTY: 'Node name cannot be empty',
  ROLE_NAME_REQUIRED: 'Fill role name',
  SHARE_RATIO_INVALID: 'Please enter a number greater than or equal to 0',
  CANNOT_GRANT_UNHELD: 'You cannot grant permissions you do not hold',
  CANNOT_CHANGE_OWN_ROLE: 'You cannot change your own role',
  OUT_OF_SCOPE: 'This record is outside your branch',
  ACCOUNT_EXISTS: 'This account already exists',
  UPLOAD_LIMIT: 'File upload limit exceeded',
  CONVERSION_FAILED: 'Conversion failed',
  ORDER_FILTER_REQUIRED: 'Please enter at least one filter condition',
  ORDER_USER_REQUIRED: 'Please select a user or enter the order number or order id',
  CS_PHONE_REQUIRED: 'Please enter the mobile phone number of the user you want to query',
  RECHARGE_USER_REQUIRED: 'Please select the user to query',
  LIMIT_DOUBLES: 'Limit of doubles reached',
  SELECT_RESULT: 'Please select a result',
  TRIPLES_NOT_ALLOWED: 'Triples not allowed',
  EXCEEDED_MAX_SELECTABLE: 'exceeded maximum selectable',
  SUCCESS: 'Successful operation',
  COPIED: 'Copied successfully',
  REQUESTING: 'Requesting, please wait...',
  LOAD_FAILED: 'Failed to load...',
  NO_DATA: 'No data',
  CASHOUT_LOCKED: 'Cashout currently locked.',
  RESOURCE_ERROR: 'Resource error, please contact administrator',
  DATA_ABNORMAL: 'Data abnormal',
  WS_UNSUPPORTED: 'Sorry, the browser does not support websocket, please change the browser and try again',
};

const REQUIRED: MessageCode[] = [
  ...(Object.keys(EXACT) as MessageCode[]),
  'CONFLICT',
  'TOO_MANY_REQUESTS',
  'OLD_PASSWORD_WRONG',
  'PASSWORD_TOO_WEAK',
  'ROLE_IN_USE',
  'DELETE_ISSUE_WARNING',
  'DELETE_PERMANENT_WARNING',
  'MAINTENANCE',
  'SESSION_EXPIRED',
  'LOG_TYPE_UNKNOWN',
];

const placeholders = (s: string) => [...s.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]).sort();

describe('message catalogue', () => {
  it('has every required code', () => {
    for (const code of REQUIRED) expect(isMessageCode(code), code).toBe(true);
    expect(isMessageCode('NOPE')).toBe(false);
    expect(isMessageCode('toString')).toBe(false);
  });

  it.each(Object.entries(EXACT))('%s has the spec English text', (code, text) => {
    expect(message(code as MessageCode, 'en-US')).toBe(text);
  });

  it('has the Chinese fallback text of the spec for data abnormal', () => {
    expect(message('DATA_ABNORMAL', 'zh-CN')).toBe('数据异常');
    expect(message('DATA_ABNORMAL', 'sw-KE')).not.toBe('数据异常');
  });

  it('has a non-empty text in every language, with the same placeholders', () => {
    for (const code of MESSAGE_CODES) {
      const en = MESSAGES[code]['en-US'];
      for (const locale of SUPPORTED_LOCALES) {
        const text = MESSAGES[code][locale];
        expect(text.trim(), `${code} ${locale}`).not.toBe('');
        expect(placeholders(text), `${code} ${locale}`).toEqual(placeholders(en));
      }
    }
  });

  it('is translated, not copied', () => {
    for (const locale of ['sw-KE', 'zh-CN'] as const) {
      const copied = MESSAGE_CODES.filter((c) => (MESSAGES[c][locale] as string) === MESSAGES[c]['en-US']);
      expect(copied, locale).toEqual([]);
    }
  });

  it('warns that deleting an issue refunds the round and cannot be undone', () => {
    const text = message('DELETE_ISSUE_WARNING', 'en-US');
    expect(text).toMatch(/all user orders/);
    expect(text).toMatch(/refund/);
    expect(text).toMatch(/cannot be recovered/);
    expect(message('DELETE_PERMANENT_WARNING', 'en-US')).toMatch(/permanently deleted/);
    expect(message('MAINTENANCE', 'en-US')).toMatch(/group chat/);
  });
});

describe('interpolation', () => {
  it('fills parameters in every language', () => {
    expect(message('ACCOUNT_LOCKED', 'en-US', { minutes: 15 })).toBe(
      'Too many failed sign-ins. The account is locked for 15 minute(s).',
    );
    expect(message('ACCOUNT_LOCKED', 'sw-KE', { minutes: 5 })).toContain('dakika 5');
    expect(message('ACCOUNT_LOCKED', 'zh-CN', { minutes: 5 })).toContain('锁定 5 分钟');
  });

  it('leaves a placeholder without a value as written and ignores unknown parameters', () => {
    expect(message('ACCOUNT_LOCKED', 'en-US')).toContain('{minutes}');
    expect(interpolate('{a} and {b}', { a: 'x', c: 'y' })).toBe('x and {b}');
    expect(interpolate('{a}{a}', { a: 0 })).toBe('00');
    expect(interpolate('{toString}', {})).toBe('{toString}');
  });

  it('normalizes the language tag and defaults to English', () => {
    expect(message('NO_DATA', 'zh')).toBe('暂无数据');
    expect(message('NO_DATA', 'sw-TZ')).toBe('Hakuna data');
    expect(message('NO_DATA', 'fr')).toBe('No data');
    expect(message('NO_DATA')).toBe('No data');
  });
});
