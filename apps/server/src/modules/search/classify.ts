import { PAY_TYPE, tzPhoneStored } from '@dau/domain';

/**
 * What a search-everywhere query can be (issue 29), decided from its shape alone, before any query runs:
 * each kind then runs only the indexed lookups its shape can match (an exact probe of a unique index, or
 * a left-anchored prefix on an expression index of migration 0041). A query matches several shapes at
 * once when it can be read several ways (a nine-digit number is a phone and an id).
 */
export interface Classified {
  /** The bettors' stored form ("255712345678") of a Tanzanian mobile number in any form. */
  phone?: string;
  /** A whole number small enough to be an id. */
  id?: number;
  /** A serial number (orders, order numbers, recharges, withdrawals, jackpot tickets), upper case. */
  serial?: string;
  /** Which tables its first letter points to ('*': any, when the letter is not one of ours). */
  serialOf?: SerialKind[];
  /** An operator's transaction reference, as typed (references are case-sensitive). */
  reference?: string;
  /** A bettor's or an admin's invitation code, upper case. */
  invitationCode?: string;
  /** A TRON address (base58, T + 33). */
  tronAddress?: string;
  /** A TRON transaction hash (64 hex digits), lower case as TRON writes them. */
  txHash?: string;
  /** Lower-case text for a left-anchored name / account prefix. */
  prefix?: string;
}

export type SerialKind = 'order_no' | 'order_serial' | 'recharge' | 'withdrawal' | 'jackpot_ticket';

/** The letters ledger.newSerial gives each kind (O202612…). */
const SERIAL_LETTERS: Record<string, SerialKind[]> = {
  O: ['order_no'],
  S: ['order_serial'],
  R: ['recharge'],
  W: ['withdrawal'],
  J: ['jackpot_ticket'],
};
const ALL_SERIALS: SerialKind[] = ['order_no', 'order_serial', 'recharge', 'withdrawal', 'jackpot_ticket'];

/** ledger.newSerial: a letter, the UTC date (yymmdd), 12 upper-case hex digits. */
const OUR_SERIAL = /^[OSRWJ]\d{6}[0-9A-F]{12}$/;
/** Something that may be a serial of another shape (imported rows, older numbering): a letter, then 5+ letters or digits. */
const ANY_SERIAL = /^[A-Z][A-Z0-9]{5,39}$/;
/** Operators' references: letters, digits and a few separators, 6 to 64 long. */
const REFERENCE = /^[A-Za-z0-9][A-Za-z0-9._-]{5,63}$/;
/** An invitation code: 8 drawn (bettors-service.newInvitationCode) or 4 to 16 set by an admin, kept in upper case. */
const INVITATION = /^[A-Z0-9]{4,16}$/;
const TRON_ADDRESS = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const TX_HASH = /^(?:0x)?([0-9a-fA-F]{64})$/;
/** Separators an operator may type inside a number or a code. */
const SEPARATORS = /[\s\-.()\u00a0]/g;

export const MAX_ID = Number.MAX_SAFE_INTEGER;
/** The pay types an operator's reference is unique within (withdrawals_carrier, recharges_carrier). */
export const PAY_TYPES = Object.values(PAY_TYPE) as number[];

export function classify(raw: string): Classified {
  const q = raw.trim();
  const out: Classified = {};
  const compact = q.replace(SEPARATORS, '');
  const phone = tzPhoneStored(q);
  if (phone) out.phone = phone;
  if (/^\d{1,16}$/.test(compact) && Number(compact) > 0 && Number(compact) <= MAX_ID) out.id = Number(compact);
  const upper = compact.toUpperCase();
  if (OUR_SERIAL.test(upper)) {
    out.serial = upper;
    out.serialOf = SERIAL_LETTERS[upper[0]];
  } else if (ANY_SERIAL.test(upper) && /\d/.test(upper)) {
    out.serial = upper;
    out.serialOf = SERIAL_LETTERS[upper[0]] ?? ALL_SERIALS;
  }
  if (!q.includes(' ') && REFERENCE.test(q)) out.reference = q;
  if (INVITATION.test(upper)) out.invitationCode = upper;
  if (TRON_ADDRESS.test(q)) out.tronAddress = q;
  const hash = TX_HASH.exec(q);
  if (hash) out.txHash = hash[1].toLowerCase();
  // Names and accounts: text with a letter in it, at least two characters (a single letter would match a
  // tenth of the book), and not one of the machine shapes above.
  if (!out.tronAddress && !out.txHash && !(out.serial && OUR_SERIAL.test(out.serial)) && /\p{L}/u.test(q) && q.length >= 2) {
    out.prefix = q.toLowerCase().replace(/\s+/g, ' ');
  }
  return out;
}

/** `%` and `_` are literal in a prefix (LIKE's escape is the backslash). */
export const prefixPattern = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
