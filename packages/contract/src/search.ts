/**
 * Search everywhere (GET /api/v1/search, apps/server/src/modules/search): the kinds it finds, in the order
 * the answer lists them, and the shape of a result. No zod: the console imports it through `ui`.
 */
export const SEARCH_KINDS = ['bettor', 'order', 'withdrawal', 'recharge', 'jackpot_ticket', 'tron_wallet', 'tron_transfer', 'tron_sweep', 'admin'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** The server refuses longer queries (400): the longest thing searched is a transaction hash (64) with its 0x. */
export const SEARCH_MAX = 100;

export interface SearchItem {
  kind: SearchKind;
  id: number;
  /** What identifies it to an operator: a phone, a serial number, an address, an account. */
  title: string;
  /** A few more words, in no language: name, phone, references. */
  subtitle: string;
  /** Cents of TSh (a bettor's balance, a stake, a payment), when the kind has one. */
  amount: number | null;
  time: string | null;
  /** The console page that shows it (catalogue key) and the query that opens it there. */
  page: string;
  params: Record<string, string>;
}

export interface SearchGroup {
  kind: SearchKind;
  items: SearchItem[];
}

export interface SearchAnswer {
  q: string;
  groups: SearchGroup[];
}
