/** Business constants of the spec (§4 socket, §9) that more than one side needs. */

/** Socket close code meaning a deliberate close: the client must not reconnect. */
export const SOCKET_CLOSE_NO_RECONNECT = 3001;
/** Push types sent by the server; any other type goes to the handler of the current screen. */
export const SOCKET_PUSH_TYPE = { ignore: 1, reload: 2, close: 3 } as const;
export const SOCKET_PING_INTERVAL_MS = 5_000;
export const SOCKET_RETRY_DELAY_MS = 1_000;
export const SOCKET_MAX_FAILURES_DEFAULT = 20;
export const SOCKET_FALLBACK_PORT = 6009;

/** Unread notices are fetched one at a time. */
export const NOTICE_PAGE_SIZE = 1;

/** The jackpot is played on 13 matches ("13 string 1"). */
export const JACKPOT_MATCHES = 13;
/** Jackpot odds rise is measured over this many consecutive checks. */
export const JACKPOT_ODDS_RISE_CHECKS = 5;
/** No more than this many results may be chosen for the same match. */
export const MAX_RESULTS_PER_MATCH = 2;

/** Default withholding tax on net winnings, in basis points (10%); the live rate is a setting. */
export const WITHHOLDING_TAX_DEFAULT_BPS = 1_000;

export const PRIMARY_COLOR = '#f5ca47';
export const MENU_WIDTH = 210;
export const REGISTER_PATH = '/admin_register';
