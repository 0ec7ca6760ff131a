/**
 * SMS arithmetic (issue 15): which alphabet a text needs, how many parts (segments) it is sent in and
 * what a send costs. Pure rules, no I/O: the preview, the send and the tests use the same functions.
 *
 * - GSM-7 (3GPP TS 23.038, "GSM 03.38"): the basic character set, plus the extension table whose
 *   characters are sent as ESC + char and so count 2 septets each (^ { } \ [ ~ ] | €, form feed).
 *   A text made only of these is GSM-7: 160 septets in one part, 153 per part when concatenated (the
 *   7-septet user data header).
 * - Anything else (Chinese, emoji, curly quotes...) needs UCS-2: 70 UTF-16 units in one part, 67 per part
 *   when concatenated. An astral character (emoji) is two UTF-16 units, and a part never splits it.
 * - Swahili is written in the Latin alphabet without diacritics, so it fits GSM-7; Chinese does not.
 * - Cost = segments per message × recipients × the configured cost of a segment (cents of TSh).
 */

export type SmsEncoding = 'gsm7' | 'ucs2';

/** The GSM 03.38 basic character set (default alphabet), as JavaScript characters. */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The GSM 03.38 extension table: each costs 2 septets (escape + character). */
const GSM7_EXTENSION = '^{}\\[~]|€\f';

const BASIC = new Set(Array.from(GSM7_BASIC));
const EXTENSION = new Set(Array.from(GSM7_EXTENSION));

export const SMS_LIMITS = {
  gsm7: { single: 160, part: 153 },
  ucs2: { single: 70, part: 67 },
} as const;

/** The longest text the console accepts (AT splits long texts; 10 UCS-2 parts or 10+ GSM-7 parts). */
export const SMS_MAX_CHARS = 1000;

/** 'gsm7' when every character is in the GSM 03.38 basic or extension table, else 'ucs2'. */
export function smsEncoding(text: string): SmsEncoding {
  for (const ch of text) if (!BASIC.has(ch) && !EXTENSION.has(ch)) return 'ucs2';
  return 'gsm7';
}

/** Length in the encoding's units: septets for GSM-7 (extension characters 2), UTF-16 units for UCS-2. */
export function smsUnits(text: string, encoding: SmsEncoding = smsEncoding(text)): number {
  if (encoding === 'ucs2') return text.length;
  let n = 0;
  for (const ch of text) n += EXTENSION.has(ch) ? 2 : 1;
  return n;
}

/**
 * Parts a text is sent in. A concatenated message never splits an escape sequence (GSM-7) or a
 * surrogate pair (UCS-2) across two parts, so parts are filled character by character.
 */
export function smsSegments(text: string, encoding: SmsEncoding = smsEncoding(text)): number {
  if (text.length === 0) return 0;
  const limits = SMS_LIMITS[encoding];
  const total = smsUnits(text, encoding);
  if (total <= limits.single) return 1;
  let parts = 1;
  let used = 0;
  for (const ch of text) {
    const w = encoding === 'ucs2' ? ch.length : EXTENSION.has(ch) ? 2 : 1;
    if (used + w > limits.part) {
      parts++;
      used = 0;
    }
    used += w;
  }
  return parts;
}

export interface SmsQuote {
  encoding: SmsEncoding;
  /** Units (septets or UTF-16 units) of the text. */
  units: number;
  /** Parts per message. */
  segments: number;
  /** segments × recipients × cost of a segment, in cents of TSh. */
  cost_cents: number;
}

/** Encoding, parts and cost of sending `text` to `recipients` numbers at `centsPerSegment`. */
export function smsQuote(text: string, recipients: number, centsPerSegment: number): SmsQuote {
  const encoding = smsEncoding(text);
  const segments = smsSegments(text, encoding);
  return { encoding, units: smsUnits(text, encoding), segments, cost_cents: smsCost(segments, recipients, centsPerSegment) };
}

export function smsCost(segments: number, recipients: number, centsPerSegment: number): number {
  return segments * recipients * centsPerSegment;
}

/**
 * Whether a bettor's incoming SMS asks to stop receiving messages: STOP (English) or ACHA / SITISHA
 * (Swahili "stop"), alone or as the first word, any case.
 */
export function isStopRequest(text: string): boolean {
  const first = text.trim().split(/\s+/)[0]?.toUpperCase() ?? '';
  return ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'ACHA', 'SITISHA'].includes(first.replace(/[^A-Z]/g, ''));
}
