/**
 * Small pure validators shared by the server (authoritative) and the console (early feedback).
 * Each answers `{ ok: true, value }` with the normalised value, or `{ ok: false, code }` with the
 * message code to show.
 */
import type { MessageCode } from './messages';

export type Validation<T> = { ok: true; value: T } | { ok: false; code: MessageCode };

const ok = <T>(value: T): Validation<T> => ({ ok: true, value });
const fail = <T = never>(code: MessageCode): Validation<T> => ({ ok: false, code });

// ---------------------------------------------------------------------------------------------
// Share ratio (spec §5): a number >= 0; we allow at most 4 decimals.

export const SHARE_RATIO_MAX_DECIMALS = 4;
const SHARE_RATIO = /^\d+(?:\.\d{1,4})?$/;

export function validateShareRatio(input: unknown): Validation<number> {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) return fail('SHARE_RATIO_INVALID');
    text = String(Object.is(input, -0) ? 0 : input); // shortest round-trip form; '1e-7' fails below
  } else if (typeof input === 'string') {
    text = input.trim();
  } else {
    return fail('SHARE_RATIO_INVALID');
  }
  if (!SHARE_RATIO.test(text)) return fail('SHARE_RATIO_INVALID');
  const value = Number(text);
  if (!Number.isFinite(value) || value > Number.MAX_SAFE_INTEGER) return fail('SHARE_RATIO_INVALID');
  return ok(value);
}

// ---------------------------------------------------------------------------------------------
// Passwords and accounts (spec §5)

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

/** A password: required, 10 to 128 characters (counted as Unicode code points), not only spaces. */
export function validatePassword(input: unknown, requiredCode: MessageCode = 'LOGIN_PASSWORD_REQUIRED'): Validation<string> {
  if (typeof input !== 'string' || input.length === 0) return fail(requiredCode);
  const length = Array.from(input).length;
  if (length < PASSWORD_MIN_LENGTH || input.trim().length === 0) return fail('PASSWORD_TOO_WEAK');
  if (length > PASSWORD_MAX_LENGTH) return fail('PASSWORD_TOO_LONG');
  return ok(input);
}

export const ACCOUNT_PATTERN = /^[A-Za-z0-9_.-]{3,32}$/;

/** An account name: surrounding spaces are dropped; 3 to 32 of [A-Za-z0-9_.-]. */
export function validateAccount(input: unknown): Validation<string> {
  if (typeof input !== 'string' || input.trim() === '') return fail('LOGIN_USERNAME_REQUIRED');
  const value = input.trim();
  return ACCOUNT_PATTERN.test(value) ? ok(value) : fail('ACCOUNT_INVALID');
}

/** Change password (spec §5): old and new required, the two new entries equal, the new one strong enough. */
export function validatePasswordChange(input: {
  oldPassword: unknown;
  newPassword: unknown;
  confirmPassword: unknown;
}): Validation<{ oldPassword: string; newPassword: string }> {
  if (typeof input.oldPassword !== 'string' || input.oldPassword === '') return fail('OLD_PASSWORD_REQUIRED');
  const next = validatePassword(input.newPassword, 'NEW_PASSWORD_REQUIRED');
  if (!next.ok) return next;
  if (input.confirmPassword !== next.value) return fail('PASSWORDS_INCONSISTENT');
  return ok({ oldPassword: input.oldPassword, newPassword: next.value });
}

/**
 * Registration (spec §5): a valid account, a password, the two passwords equal, and the account
 * and the password not the same. (Registration itself is disabled in this build; the rules hold for
 * admins created by an admin too.)
 */
export function validateRegistration(input: {
  account: unknown;
  password: unknown;
  confirmPassword: unknown;
}): Validation<{ account: string; password: string }> {
  const account = validateAccount(input.account);
  if (!account.ok) return account;
  if (typeof input.password !== 'string' || input.password === '') return fail('LOGIN_PASSWORD_REQUIRED');
  if (input.confirmPassword !== input.password) return fail('REGISTER_PASSWORDS_INCONSISTENT');
  if (input.password === account.value) return fail('REGISTER_ACCOUNT_EQUALS_PASSWORD');
  const password = validatePassword(input.password);
  if (!password.ok) return password;
  return ok({ account: account.value, password: password.value });
}

// ---------------------------------------------------------------------------------------------
// Phone numbers: Tanzanian mobile MSISDN. Mobile numbers have 9 digits after the country code and
// start with 6 or 7 (Vodacom, Airtel, Tigo/Yas, Halotel, TTCL...). Stored as 255XXXXXXXXX.

const PHONE_INTERNATIONAL = /^255([67]\d{8})$/;
const PHONE_NATIONAL = /^0([67]\d{8})$/;

/** "0712 345 678", "+255 712-345-678", "255712345678" -> "255712345678". */
export function validatePhone(input: unknown): Validation<string> {
  if (typeof input !== 'string') return fail('PHONE_INVALID');
  const compact = input.trim().replace(/[\s-]/g, '').replace(/^\+/, '');
  const m = PHONE_INTERNATIONAL.exec(compact) ?? PHONE_NATIONAL.exec(compact);
  return m ? ok(`255${m[1]}`) : fail('PHONE_INVALID');
}

// ---------------------------------------------------------------------------------------------
// IP addresses and ranges for the IP blacklist

export interface IpEntry {
  version: 4 | 6;
  /** Canonical text: dotted quad, or RFC 5952 IPv6 ("2001:db8::1"); the network address for a range. */
  address: string;
  /** Prefix length: 32 / 128 for a single address. */
  prefix: number;
  /** Canonical entry as stored and shown: the address, or "address/prefix" for a range. */
  text: string;
  /** The address as 4 octets (IPv4) or 8 hextets (IPv6), already masked to the prefix. */
  parts: readonly number[];
}

function parseIpv4Parts(s: string): number[] | null {
  const pieces = s.split('.');
  if (pieces.length !== 4) return null;
  const out: number[] = [];
  for (const p of pieces) {
    // Decimal only, no leading zeros ("010" is octal to some parsers): refuse the ambiguity.
    if (!/^(?:0|[1-9]\d{0,2})$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

function parseIpv6Parts(s: string): number[] | null {
  if (s.length === 0 || s.includes('%')) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const readGroups = (part: string, allowV4Tail: boolean): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    const out: number[] = [];
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i]!;
      if (allowV4Tail && i === groups.length - 1 && g.includes('.')) {
        const v4 = parseIpv4Parts(g);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
        continue;
      }
      if (!/^[0-9A-Fa-f]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  if (halves.length === 1) {
    const all = readGroups(halves[0]!, true);
    return all && all.length === 8 ? all : null;
  }
  const head = readGroups(halves[0]!, false);
  const tail = readGroups(halves[1]!, true);
  if (!head || !tail || head.length + tail.length > 7) return null;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

function maskParts(parts: readonly number[], bitsPerPart: number, prefix: number): number[] {
  return parts.map((p, i) => {
    const keep = Math.max(0, Math.min(bitsPerPart, prefix - i * bitsPerPart));
    if (keep === 0) return 0;
    if (keep === bitsPerPart) return p;
    const mask = ((1 << keep) - 1) << (bitsPerPart - keep);
    return p & mask;
  });
}

function formatIpv6(parts: readonly number[]): string {
  // RFC 5952: lowercase, no leading zeros, the longest run (>= 2) of zero groups as "::" (first on a tie).
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (parts[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && parts[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = parts.map((p) => p.toString(16));
  if (bestLen < 2) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

function isV4Mapped(parts: readonly number[]): boolean {
  return parts.slice(0, 5).every((p) => p === 0) && parts[5] === 0xffff;
}

function makeV4(octets: readonly number[], prefix: number): IpEntry {
  const parts = maskParts(octets, 8, prefix);
  const address = parts.join('.');
  return { version: 4, address, prefix, text: prefix === 32 ? address : `${address}/${prefix}`, parts };
}

function makeV6(hextets: readonly number[], prefix: number): IpEntry {
  // An IPv4-mapped address (::ffff:a.b.c.d, what a dual-stack socket reports) is the IPv4 address.
  if (isV4Mapped(hextets) && prefix >= 96) {
    const [, , , , , , hi, lo] = hextets as [number, number, number, number, number, number, number, number];
    return makeV4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff], prefix - 96);
  }
  const parts = maskParts(hextets, 16, prefix);
  const address = formatIpv6(parts);
  return { version: 6, address, prefix, text: prefix === 128 ? address : `${address}/${prefix}`, parts };
}

/**
 * An IPv4 or IPv6 address, or a range in CIDR form ("10.0.0.0/8", "2001:db8::/32"). Host bits of a
 * range are cleared ("192.168.1.7/24" is stored as "192.168.1.0/24"). Zone ids are refused.
 */
export function parseIpOrCidr(input: unknown): Validation<IpEntry> {
  if (typeof input !== 'string') return fail('IP_INVALID');
  const s = input.trim();
  const slash = s.indexOf('/');
  const addr = slash === -1 ? s : s.slice(0, slash);
  const prefixText = slash === -1 ? null : s.slice(slash + 1);
  if (prefixText !== null && !/^(?:0|[1-9]\d{0,2})$/.test(prefixText)) return fail('IP_INVALID');

  if (addr.includes(':')) {
    const hextets = parseIpv6Parts(addr);
    const prefix = prefixText === null ? 128 : Number(prefixText);
    if (!hextets || prefix > 128) return fail('IP_INVALID');
    return ok(makeV6(hextets, prefix));
  }
  const octets = parseIpv4Parts(addr);
  const prefix = prefixText === null ? 32 : Number(prefixText);
  if (!octets || prefix > 32) return fail('IP_INVALID');
  return ok(makeV4(octets, prefix));
}

/** A single address (no range), canonical. */
export function parseIpAddress(input: unknown): Validation<IpEntry> {
  if (typeof input === 'string' && input.includes('/')) return fail('IP_INVALID');
  return parseIpOrCidr(input);
}

/**
 * Whether the client address `ip` is covered by a blacklist entry: an exact address (IPv4 or IPv6)
 * or a range (IPv4 or IPv6 CIDR). IPv4-mapped IPv6 client addresses match IPv4 entries. An
 * unparsable address or entry matches nothing.
 */
export function ipMatches(ip: string, entry: string | IpEntry): boolean {
  const client = parseIpAddress(ip);
  if (!client.ok) return false;
  let rule: IpEntry;
  if (typeof entry === 'string') {
    const parsed = parseIpOrCidr(entry);
    if (!parsed.ok) return false;
    rule = parsed.value;
  } else {
    rule = entry;
  }
  if (client.value.version !== rule.version) return false;
  const bits = rule.version === 4 ? 8 : 16;
  const masked = maskParts(client.value.parts, bits, rule.prefix);
  return masked.every((p, i) => p === rule.parts[i]);
}
