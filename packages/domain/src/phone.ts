/**
 * Tanzanian mobile numbers for the messaging channels (in-app messages by phone list, SMS, push).
 *
 * One normaliser: every form an operator pastes — "0712 345 678", "712345678", "255712345678",
 * "+255 712-345-678", "(0712) 345.678" — becomes the E.164 form "+255712345678", or null when it is not a
 * Tanzanian mobile number (9 national digits starting with 6 or 7, the rule of `validatePhone`).
 *
 * Bettors' records keep the form of `validatePhone` ("255712345678", no plus); `tzPhoneStored` gives
 * that form so a pasted list can be matched against `bettors.phone`.
 */

/** The 9 national digits of a mobile number (after 255 / 0). */
const NATIONAL = /^[67]\d{8}$/;
/** Separators an operator may type inside a number. */
const SEPARATORS = /[\s\-.()\u00a0]/g;

/** National significant number ("712345678") or null. */
function nationalDigits(input: unknown): string | null {
  if (typeof input !== 'string' && typeof input !== 'number') return null;
  let s = String(input).trim().replace(SEPARATORS, '');
  if (s.startsWith('+')) {
    s = s.slice(1);
    if (!s.startsWith('255')) return null; // another country
  } else if (s.startsWith('00255')) {
    s = s.slice(2); // international dialling prefix
  }
  if (!/^\d+$/.test(s)) return null;
  let national: string;
  if (s.length === 12 && s.startsWith('255')) national = s.slice(3);
  else if (s.length === 10 && s.startsWith('0')) national = s.slice(1);
  else if (s.length === 9) national = s;
  else return null;
  return NATIONAL.test(national) ? national : null;
}

/** "0712 345 678" | "712345678" | "255712345678" | "+255712345678" → "+255712345678"; anything else → null. */
export function normaliseTzPhone(input: unknown): string | null {
  const n = nationalDigits(input);
  return n ? `+255${n}` : null;
}

/** The form bettors' records keep ("255712345678"), or null. */
export function tzPhoneStored(input: unknown): string | null {
  const n = nationalDigits(input);
  return n ? `255${n}` : null;
}

/** "+255712345678" or "255712345678" → "0712 345 678" (the local form people read). */
export function formatTzPhoneLocal(input: unknown): string {
  const n = nationalDigits(input);
  if (!n) return typeof input === 'string' ? input : '';
  return `0${n.slice(0, 3)} ${n.slice(3, 6)} ${n.slice(6)}`;
}

export interface PhoneListParse {
  /** Distinct normalised numbers ("+255…") in the order first seen. */
  phones: string[];
  /** Entries that are not Tanzanian mobile numbers, as typed (trimmed), distinct. */
  invalid: string[];
  /** How many entries repeated an earlier number. */
  duplicates: number;
}

/**
 * A pasted list or a CSV column: entries separated by new lines, commas, semicolons or tabs (spaces
 * stay inside a number: "0712 345 678"). Empty entries are ignored.
 */
export function parsePhoneList(text: string): PhoneListParse {
  const phones: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  const seenInvalid = new Set<string>();
  let duplicates = 0;
  for (const raw of text.split(/[\n\r,;\t]+/)) {
    const entry = raw.trim().replace(/^["']|["']$/g, '').trim();
    if (!entry) continue;
    const phone = normaliseTzPhone(entry);
    if (!phone) {
      if (!seenInvalid.has(entry)) {
        seenInvalid.add(entry);
        invalid.push(entry);
      }
      continue;
    }
    if (seen.has(phone)) {
      duplicates++;
      continue;
    }
    seen.add(phone);
    phones.push(phone);
  }
  return { phones, invalid, duplicates };
}
