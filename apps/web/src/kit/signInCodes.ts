/**
 * The product's messages the public pages (sign-in, register, maintenance, password change) can show
 * before the console is loaded: `virtual:spec-messages/<locale>` holds these, and
 * `virtual:spec-messages/<locale>/console` every other code, fetched with the shell. The server answers
 * its refusals with their text in the operator's language, so a code the server sends needs no entry here;
 * these are the codes the console's own pages and validators show. apps/web/test/sign-in-codes.test.ts
 * fails when a file of the sign-in path names a code missing from this list.
 */
export const SIGN_IN_CODES = [
  'ACCOUNT_DISABLED',
  'ACCOUNT_EXPIRED',
  'ACCOUNT_INVALID',
  'ACCOUNT_LOCKED',
  'DATA_ABNORMAL',
  'FORBIDDEN',
  'FORGOT_PASSWORD',
  'GOOGLE_CODE_INVALID',
  'GOOGLE_CODE_REQUIRED',
  'INTERNAL',
  'IP_INVALID',
  'LOAD_FAILED',
  'LOGIN_CODE_FAILED',
  'LOGIN_FAILED',
  'LOGIN_PASSWORD_REQUIRED',
  'LOGIN_THROTTLED',
  'LOGIN_USERNAME_REQUIRED',
  'MAINTENANCE',
  'NEW_PASSWORD_REQUIRED',
  'OLD_PASSWORD_REQUIRED',
  'PARAM_INVALID',
  'PASSWORDS_INCONSISTENT',
  'PASSWORD_TOO_LONG',
  'PASSWORD_TOO_WEAK',
  'PHONE_INVALID',
  'REGISTER_ACCOUNT_EQUALS_PASSWORD',
  'REGISTER_DISABLED',
  'REGISTER_PASSWORDS_INCONSISTENT',
  'SESSION_EXPIRED',
  'SHARE_RATIO_INVALID',
  'SUCCESS',
  'TOO_MANY_REQUESTS',
  'UNAUTHORIZED',
  'WS_UNSUPPORTED',
] as const;
