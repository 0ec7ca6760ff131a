import type * as zxcvbnCommon from '@zxcvbn-ts/language-common';
import { onFirstUse } from './lazy.js';

const passwordLists = onFirstUse<typeof zxcvbnCommon>('@zxcvbn-ts/language-common');
import { validatePassword, type MessageCode, type Validation } from '@dau/domain';

/**
 * The server's password policy for administrators (OWASP ASVS 2.1.1, 2.1.7): the domain's rule (10 to 128
 * characters, not only spaces) and not one of the ~49,000 most common passwords of the zxcvbn-ts
 * "common" list, which the npm package ships (nothing is downloaded at run time). The comparison ignores
 * case ("Password123" is "password123").
 */
let common: ReadonlySet<string> | null = null;
const commonPasswords = () => (common ??= new Set(passwordLists().dictionary['passwords-common'].map((p) => p.toLowerCase())));

export const isCommonPassword = (password: string) => commonPasswords().has(password.toLowerCase());

export function checkPassword(input: unknown, requiredCode?: MessageCode): Validation<string> {
  const basic = validatePassword(input, requiredCode);
  if (!basic.ok) return basic;
  return isCommonPassword(basic.value) ? { ok: false, code: 'PASSWORD_COMMON' } : basic;
}
