/** The order history's vocabulary: what the server writes in order_events and how the console labels it. */

/** Keys of a history entry's before / after worth showing, in this order. */
export const MONEY_KEYS = ['stake', 'payout', 'tax', 'bonus', 'profit', 'credited_cash', 'credited_credit', 'inviter_reward', 'cashout_amount', 'early_cashout_fee', 'target'];
export const SHOWN_KEYS = ['status', 'outcome_status', 'total_odds', 'state', ...MONEY_KEYS];

/**
 * The kinds of order history entries the server writes (order_events.kind), each labelled
 * `betting.kind.<kind>`; a test checks the server writes no other and every language has them.
 */
export const ORDER_EVENT_KINDS = ['placed', 'settled', 'resettled', 'rolled_back', 'cancelled', 'result_changed', 'cashout', 'cashout_rule'] as const;
/** States of an auto cashout rule in its history entries, labelled `betting.ruleState.<state>`. */
export const CASHOUT_RULE_STATES = ['active', 'cancelled', 'fired'] as const;
/** Who made a change (order_events.source), labelled `betting.source.<source>`. */
export const ORDER_EVENT_SOURCES = ['feed', 'operator', 'system', 'bettor'] as const;
/** Keys of history values, labelled `betting.history.<key>` (outcome_status has the line's label). */
export const HISTORY_KEYS = SHOWN_KEYS.filter((k) => k !== 'outcome_status');
