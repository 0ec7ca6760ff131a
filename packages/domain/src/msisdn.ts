import { PAY_TYPE } from './enums';

/**
 * The number decides the network (issue 28): which Tanzanian mobile network a number belongs to, by the
 * two digits after 255 (the TCRA's "06YA / 07YA" mobile access codes), and which of our mobile-money pay
 * types pays to it. A withdrawal naming a pay type is checked against this table (server
 * modules/payments/network.ts); a number ported to another network keeps its prefix, so an admin records
 * where it went (ported_numbers) and that record wins over the table.
 *
 * Kept as data with its source, because numbering changes (new blocks, mergers, rebrands): when a
 * network is re-branded or a block re-assigned, change the row and its source, nothing else.
 *
 * Sources (read December 2026):
 * - WIKI: Wikipedia, "Telephone numbers in Tanzania", mobile allocations table
 *   (https://en.wikipedia.org/wiki/Telephone_numbers_in_Tanzania, read through its wikimili.com mirror).
 * - LPN: Google libphonenumber carrier data resources/carrier/en/255.txt (github.com/google/libphonenumber,
 *   2026 version, commit 063d9646; an earlier version, commit 80fa12ef, is noted where it differs). It
 *   cites the Wikipedia page above; it is what most phone libraries answer.
 * - TCRA: TCRA National Numbering Plan (June 2014 edition, cited in google/libphonenumber issue #1149):
 *   06Y and 07Y (Y = 1…9) are the blocks for mobile networks, assigned one by one.
 * No operator's own prefix list was readable; a row whose sources disagree, or rest on one late source
 * only, is marked `uncertain` (a withdrawal to it still goes through the check: an admin who knows better
 * marks the number ported).
 */

export interface NetworkPrefix {
  /** The two national digits after 255 ("74" for 255 74X XXX XXX). */
  prefix: string;
  /** The network as a customer knows it (brand, with the licensee where it helps). */
  network: string;
  /** Our mobile-money pay type paying to this network, or null: a network we do not pay to. */
  payType: number | null;
  /** Where this row comes from (see the sources above). */
  source: string;
  note: string;
  /** The sources disagree, or one recent source only says so. */
  uncertain?: boolean;
}

const WIKI = 'Wikipedia "Telephone numbers in Tanzania" (read 2026-12)';
const LPN = 'libphonenumber carrier/en/255.txt (2026, commit 063d9646)';
const LPN_OLD = 'libphonenumber carrier/en/255.txt (commit 80fa12ef)';

const YAS = 'Yas (formerly Tigo; Honora Tanzania / MIC Tanzania)';
const HALOTEL = 'Halotel (Viettel Tanzania)';
const AIRTEL = 'Airtel Tanzania';
const VODACOM = 'Vodacom Tanzania';

/** The table, ascending by prefix. */
export const TZ_NETWORK_PREFIXES: readonly NetworkPrefix[] = [
  { prefix: '61', network: HALOTEL, payType: PAY_TYPE.halotel, source: `${WIKI}; ${LPN}`, note: 'HaloPesa.' },
  { prefix: '62', network: HALOTEL, payType: PAY_TYPE.halotel, source: `${WIKI}; ${LPN}`, note: 'HaloPesa; the first Halotel block (2015).' },
  {
    prefix: '63', network: HALOTEL, payType: PAY_TYPE.halotel, source: `${LPN}; ${WIKI}`, uncertain: true,
    note: 'Wikipedia lists 63 as Mkulima African Telecommunication (Amotel), not operational; libphonenumber 2026 names Viettel.',
  },
  { prefix: '65', network: YAS, payType: PAY_TYPE.tigo, source: `${WIKI}; ${LPN}`, note: 'Tigo Pesa, now Mixx by Yas.' },
  {
    prefix: '66', network: AIRTEL, payType: PAY_TYPE.airtel, source: `${LPN}; ${LPN_OLD}`, uncertain: true,
    note: 'Smile Communications (4G data only, no mobile money) in Wikipedia and earlier libphonenumber; Airtel in libphonenumber 2026.',
  },
  { prefix: '67', network: YAS, payType: PAY_TYPE.tigo, source: `${WIKI}; ${LPN}`, note: 'Tigo Pesa, now Mixx by Yas.' },
  { prefix: '68', network: AIRTEL, payType: PAY_TYPE.airtel, source: `${WIKI}; ${LPN}`, note: 'Airtel Money.' },
  {
    prefix: '69', network: AIRTEL, payType: PAY_TYPE.airtel, source: `${LPN}; google/libphonenumber issue #1149 (2016)`,
    note: 'Airtel Money; a 2016 block. One Swahili list (fursa24.com) names Halotel: not followed.',
  },
  { prefix: '70', network: YAS, payType: PAY_TYPE.tigo, source: LPN, uncertain: true, note: 'A recent block; only libphonenumber 2026 lists it.' },
  { prefix: '71', network: YAS, payType: PAY_TYPE.tigo, source: `${WIKI}; ${LPN}`, note: 'Tigo Pesa, now Mixx by Yas.' },
  {
    prefix: '72', network: VODACOM, payType: PAY_TYPE.vodacom, source: `${LPN}; ruimarinho/google-libphonenumber issue #485 (2026-06)`, uncertain: true,
    note: 'M-Pesa; a block opened in 2026 (reserved for future mobile services in Wikipedia).',
  },
  {
    prefix: '73', network: 'TTCL (Tanzania Telecommunications Corporation)', payType: null, source: `${WIKI}; ${LPN}`,
    note: 'T-Pesa exists but is not one of our pay types.',
  },
  { prefix: '74', network: VODACOM, payType: PAY_TYPE.vodacom, source: `${WIKI}; ${LPN}`, note: 'M-Pesa.' },
  { prefix: '75', network: VODACOM, payType: PAY_TYPE.vodacom, source: `${WIKI}; ${LPN}`, note: 'M-Pesa.' },
  { prefix: '76', network: VODACOM, payType: PAY_TYPE.vodacom, source: `${WIKI}; ${LPN}`, note: 'M-Pesa.' },
  {
    prefix: '77', network: `${YAS}, formerly Zantel`, payType: PAY_TYPE.tigo, source: `${LPN}; ${LPN_OLD}; ${WIKI}`, uncertain: true,
    note: 'Zantel (Zanzibar Telecom, Ezy Pesa) merged into Tigo; libphonenumber 2026 names Yas, Wikipedia still Zantel.',
  },
  { prefix: '78', network: AIRTEL, payType: PAY_TYPE.airtel, source: `${WIKI}; ${LPN}`, note: 'Airtel Money.' },
  {
    prefix: '79', network: VODACOM, payType: PAY_TYPE.vodacom, source: `${LPN}; ${LPN_OLD}`, uncertain: true,
    note: 'Benson Informatics (CDMA, defunct) in Wikipedia and earlier libphonenumber; Vodacom in libphonenumber 2026.',
  },
];

const BY_PREFIX = new Map(TZ_NETWORK_PREFIXES.map((r) => [r.prefix, r]));

/**
 * The network of a normalised MSISDN ("255XXXXXXXXX", the form bettors' records keep), or undefined when
 * it is not a Tanzanian mobile number or its prefix is in no row (a block we know nothing of).
 */
export function networkOf(phone: string): NetworkPrefix | undefined {
  if (!/^255[67]\d{8}$/.test(phone)) return undefined;
  return BY_PREFIX.get(phone.slice(3, 5));
}

/** The first well-established prefix of a pay type (null: of a network we do not pay to). */
function primaryPrefix(payType: number | null): string {
  const row = TZ_NETWORK_PREFIXES.find((r) => r.payType === payType && !r.uncertain);
  if (!row) throw new Error(`no network prefix for pay type ${String(payType)}`);
  return row.prefix;
}

/**
 * A number of the network of a pay type, the n-th of its first well-established block (n from 0 to
 * 9 999 999), for test fixtures and the demo: `exampleNumber(PAY_TYPE.airtel, 42)` = "255680000042".
 */
export function exampleNumber(payType: number | null, n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 9_999_999) throw new RangeError(`exampleNumber: n must be 0…9999999, got ${n}`);
  return `255${primaryPrefix(payType)}${String(n).padStart(7, '0')}`;
}

/** The pay types that pay to a phone number (the mobile-money ones; USDT pays to an address). */
export const MOBILE_MONEY_PAY_TYPES: readonly number[] = [PAY_TYPE.tigo, PAY_TYPE.airtel, PAY_TYPE.vodacom, PAY_TYPE.halotel];
