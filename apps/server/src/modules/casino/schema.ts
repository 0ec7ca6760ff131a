import { bigint, bigserial, boolean, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Casino (issue 13): game providers and the wallet API they call, the casino's settings, categories and
 * games, game sessions, rounds and the wallet transactions of each round, and the RTP checks.
 * Design: docs/architecture.md ("The casino wallet and virtual racing").
 *
 * Money is integer cents of TSh (bigint). Every amount a transaction moved is also on the ledger: bills
 * 23 casino bet, 24 casino win, 25 casino award with cause type 'casino' and cause id = casino_rounds.id.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

/** casino_config: a game provider (studio or aggregator) calling POST /wallet/v1/:code/... */
export const casinoProviders = pgTable(
  'casino_providers',
  {
    id: serial('id').primaryKey(),
    /** The path segment of the wallet calls. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** 'rsa' (RSA-SHA256 with publicKey) or 'hmac' (HMAC-SHA256 with secret). */
    authKind: text('auth_kind').notNull().default('hmac'),
    /** The provider's RSA public key (PEM); may be shown. */
    publicKey: text('public_key').notNull().default(''),
    /** The HMAC shared secret: write-only (never answered, never exported); sealed when a key is configured. */
    secret: text('secret').notNull().default(''),
    /** IPs and CIDRs the provider calls from; empty = any. */
    allowedIps: text('allowed_ips').array().notNull().default([]),
    launchUrl: text('launch_url').notNull().default(''),
    currency: text('currency').notNull().default('TZS'),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('casino_providers_code').on(t.code)],
);

/** The casino's settings (one row, id 1). */
export const casinoSettings = pgTable('casino_settings', {
  id: smallint('id').primaryKey().default(1),
  casinoEnabled: boolean('casino_enabled').notNull().default(true),
  /** Largest bet per wallet call (0 = no limit beyond the game's). */
  maxBet: cents('max_bet').notNull().default(0),
  /** Largest win per wallet call (0 = no limit). */
  maxWin: cents('max_win').notNull().default(0),
  /** Confidence of the RTP watch's band, bps (9990 = 99.9 %). */
  rtpAlertConfidence: integer('rtp_alert_confidence').notNull().default(9990),
  /** A win of at least this much is a large win, whatever the bets (listed for review; 0 = only the multiple counts). */
  largeWinAmount: cents('large_win_amount').notNull().default(10_000_000_00),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** casino_classification: game categories. */
export const casinoCategories = pgTable(
  'casino_categories',
  {
    id: serial('id').primaryKey(),
    nameEn: text('name_en').notNull(),
    nameSw: text('name_sw').notNull(),
    nameZh: text('name_zh').notNull(),
    icon: text('icon').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    shown: boolean('shown').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('casino_categories_sort').on(t.sort, t.id)],
);

/** casino_list: games. */
export const casinoGames = pgTable(
  'casino_games',
  {
    id: serial('id').primaryKey(),
    providerId: integer('provider_id').notNull(),
    /** The provider's code of the game (the wallet calls' game_code). */
    gameCode: text('game_code').notNull(),
    name: text('name').notNull(),
    categoryId: integer('category_id'),
    image: text('image').notNull().default(''),
    /** CASINO_GAME_KIND: 'slot', 'crash', 'roulette'. */
    kind: text('kind').notNull().default('slot'),
    /** Theoretical RTP, bps (9600 = 96 %). */
    rtpBps: integer('rtp_bps').notNull(),
    /** CASINO_VOLATILITY: 1 low, 2 medium, 3 high. */
    volatility: smallint('volatility').notNull().default(2),
    minBet: cents('min_bet').notNull().default(0),
    maxBet: cents('max_bet').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    hot: boolean('hot').notNull().default(false),
    isNew: boolean('is_new').notNull().default(false),
    /** A round whose wins exceed its bets this many times is a large win (listed for review). */
    largeWinMultiple: integer('large_win_multiple').notNull().default(5000),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('casino_games_code').on(t.providerId, t.gameCode),
    index('casino_games_category').on(t.categoryId, t.sort),
    index('casino_games_created').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
  ],
);

/** A game session: the token a provider's calls carry, bound to bettor, game and currency. */
export const casinoSessions = pgTable(
  'casino_sessions',
  {
    token: text('token').primaryKey(),
    bettorId: integer('bettor_id').notNull(),
    /** The bettor's agent at launch (scope). */
    agentId: integer('agent_id').notNull(),
    gameId: integer('game_id').notNull(),
    providerId: integer('provider_id').notNull(),
    currency: text('currency').notNull().default('TZS'),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('casino_sessions_bettor').on(t.bettorId, t.createdAt)],
);

/** casino_order: a round of a game as the provider names it. */
export const casinoRounds = pgTable(
  'casino_rounds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    providerId: integer('provider_id').notNull(),
    /** The provider's round id. */
    roundRef: text('round_ref').notNull(),
    gameId: integer('game_id').notNull(),
    bettorId: integer('bettor_id').notNull(),
    /** The bettor's agent (scope). */
    agentId: integer('agent_id').notNull(),
    /** Bets taken minus bets rolled back. */
    betTotal: cents('bet_total').notNull().default(0),
    winTotal: cents('win_total').notNull().default(0),
    /** CASINO_ROUND_STATUS: 1 open, 2 completed, 3 rolled back. */
    status: smallint('status').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    endedAt: ts('ended_at'),
  },
  (t) => [
    uniqueIndex('casino_rounds_ref').on(t.providerId, t.roundRef),
    index('casino_rounds_created').on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index('casino_rounds_agent').on(t.agentId, t.createdAt.desc().nullsFirst()),
    index('casino_rounds_bettor').on(t.bettorId, t.createdAt.desc().nullsFirst()),
    index('casino_rounds_game').on(t.gameId, t.createdAt.desc().nullsFirst()),
  ],
);

/** casino_order_details: every wallet transaction (bet, win, rollback), one per (provider, transaction_uuid). */
export const casinoTransactions = pgTable(
  'casino_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    providerId: integer('provider_id').notNull(),
    transactionUuid: text('transaction_uuid').notNull(),
    /** Null for a tombstone whose round is unknown. */
    roundId: bigint('round_id', { mode: 'number' }),
    /** 'bet', 'win', 'rollback'. */
    kind: text('kind').notNull(),
    amount: cents('amount').notNull().default(0),
    /** The bet a win or rollback refers to; on a bet, the rollback that undid it (set by the rollback). */
    referenceUuid: text('reference_uuid'),
    /** Hash of the call's content: the same uuid with other content is a duplicate. */
    requestHash: text('request_hash').notNull(),
    /** The answer's status, replayed to a repeated call. */
    status: text('status').notNull(),
    /** The answer's balance, replayed to a repeated call. */
    balanceAfter: cents('balance_after').notNull().default(0),
    billId: bigint('bill_id', { mode: 'number' }),
    /** A rollback of a bet not (yet) known: a late bet with that uuid is refused. */
    tombstone: boolean('tombstone').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('casino_transactions_uuid').on(t.providerId, t.transactionUuid),
    index('casino_transactions_round').on(t.roundId, t.id),
    index('casino_transactions_reference').on(t.providerId, t.referenceUuid),
  ],
);

/** The RTP watch's checks: the actual RTP of a game against its confidence band. */
export const casinoRtpChecks = pgTable(
  'casino_rtp_checks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    gameId: integer('game_id').notNull(),
    checkedAt: ts('checked_at').notNull().defaultNow(),
    rounds: integer('rounds').notNull(),
    turnover: cents('turnover').notNull(),
    payouts: cents('payouts').notNull(),
    actualBps: integer('actual_bps').notNull(),
    lowBps: integer('low_bps').notNull(),
    highBps: integer('high_bps').notNull(),
    inside: boolean('inside').notNull(),
  },
  (t) => [index('casino_rtp_checks_game').on(t.gameId, t.checkedAt)],
);

/**
 * Large wins (issue 22): a round whose wins exceed its game's multiple of its bets, or the settings' amount.
 * Found by the large-win watch after the round (the wallet pays as the provider says); one row per round,
 * reviewed by a casino_game holder with a note.
 */
export const casinoLargeWins = pgTable(
  'casino_large_wins',
  {
    roundId: bigint('round_id', { mode: 'number' }).primaryKey(),
    providerId: integer('provider_id').notNull(),
    gameId: integer('game_id').notNull(),
    bettorId: integer('bettor_id').notNull(),
    agentId: integer('agent_id').notNull(),
    betTotal: cents('bet_total').notNull(),
    winTotal: cents('win_total').notNull(),
    /** 'multiple' (wins over bets × the game's multiple) or 'amount' (at least the settings' amount). */
    reason: text('reason').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    reviewedBy: integer('reviewed_by'),
    reviewedAt: ts('reviewed_at'),
    reviewNote: text('review_note'),
  },
  (t) => [index('casino_large_wins_created').on(t.createdAt), index('casino_large_wins_agent').on(t.agentId, t.createdAt)],
);

/** How far the large-win watch has read casino_rounds (one row, id 1). */
export const casinoLargeWinCursor = pgTable('casino_large_win_cursor', {
  id: smallint('id').primaryKey().default(1),
  lastRoundId: bigint('last_round_id', { mode: 'number' }).notNull().default(0),
});
