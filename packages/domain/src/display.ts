/**
 * Display rules of spec §4 and small derived facts about the enumerations that both the server
 * (exports, settlement) and the console (tags, filters) need.
 */
import {
  ABNORMAL_BET_FLAG,
  ABNORMAL_BET_THRESHOLD_MINUTES,
  ARCHIVE_TYPE,
  BETTING_OFFER_STATUS,
  OUTCOME_STATUS,
  TYPE_FLAG,
  type AbnormalBetFlag,
  type ArchiveType,
  type OutcomeStatus,
} from './enums';

/** What an outcome status shows as: 1, 4, 5 -> pending; 8, 9 -> return; the rest as themselves. */
export type OutcomeStatusDisplay = 'pending' | 'won' | 'lost' | 'half_won' | 'half_lost' | 'return' | 'admin_cancelled';

/** The display identifiers that are not the label of an enumeration value of their own. */
export const DISPLAY_KEYS = ['pending', 'return'] as const;
export type DisplayKey = (typeof DISPLAY_KEYS)[number];

const OUTCOME_DISPLAY: Readonly<Record<OutcomeStatus, OutcomeStatusDisplay>> = {
  [OUTCOME_STATUS.pending]: 'pending',
  [OUTCOME_STATUS.won]: 'won',
  [OUTCOME_STATUS.lost]: 'lost',
  [OUTCOME_STATUS.unknown_resolved]: 'pending',
  [OUTCOME_STATUS.unknown]: 'pending',
  [OUTCOME_STATUS.half_won]: 'half_won',
  [OUTCOME_STATUS.half_lost]: 'half_lost',
  [OUTCOME_STATUS.void]: 'return',
  [OUTCOME_STATUS.cancelled]: 'return',
  [OUTCOME_STATUS.admin_cancelled]: 'admin_cancelled',
};

export function outcomeStatusDisplay(id: OutcomeStatus): OutcomeStatusDisplay;
export function outcomeStatusDisplay(id: number): OutcomeStatusDisplay | undefined;
export function outcomeStatusDisplay(id: number): OutcomeStatusDisplay | undefined {
  return Object.prototype.hasOwnProperty.call(OUTCOME_DISPLAY, id) ? OUTCOME_DISPLAY[id as OutcomeStatus] : undefined;
}

/** Outcome statuses whose stake goes back to the bettor (void, cancelled, admin-cancelled). */
export function isRefundedOutcome(id: number): boolean {
  return id === OUTCOME_STATUS.void || id === OUTCOME_STATUS.cancelled || id === OUTCOME_STATUS.admin_cancelled;
}

/**
 * Betting offer statuses that accept bets: 1 bettable and 2 no odds (still bettable, horse racing);
 * 3 non-participant explicitly does not, nor do the removed, invalid and resolved ones.
 */
export function isBettableOfferStatus(id: number): boolean {
  return id === BETTING_OFFER_STATUS.bettable || id === BETTING_OFFER_STATUS.no_odds;
}

/** Whether a market's type flag allows betting in the given phase. 0 (undefined) allows neither. */
export function typeFlagAllows(flag: number, phase: 'pre_match' | 'in_play'): boolean {
  if (flag === TYPE_FLAG.pre_match_and_in_play) return true;
  if (phase === 'pre_match') return flag === TYPE_FLAG.pre_match_only;
  return flag === TYPE_FLAG.in_play_only;
}

/**
 * The abnormal-bet flag for a bet still without a result `minutesAfterMatchTime` minutes after the
 * match time: the largest threshold reached (120 min, 150 min, 5 h, 24 h), or 0 (none) before 120.
 */
export function abnormalBetFlagFor(minutesAfterMatchTime: number): AbnormalBetFlag {
  let flag: AbnormalBetFlag = ABNORMAL_BET_FLAG.none;
  if (!Number.isFinite(minutesAfterMatchTime)) return flag;
  for (const [id, minutes] of Object.entries(ABNORMAL_BET_THRESHOLD_MINUTES)) {
    if (minutesAfterMatchTime >= minutes) flag = Number(id) as AbnormalBetFlag;
  }
  return flag;
}

/** Spec §9: archives split at 30 days. */
export const ARCHIVE_SPLIT_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Which archive a record created at `createdAt` belongs to at `now`: 1 within 30 days (30 x 24 h,
 * inclusive), 2 before that.
 */
export function archiveTypeFor(createdAt: Date | number, now: Date | number = Date.now()): ArchiveType {
  const created = typeof createdAt === 'number' ? createdAt : createdAt.getTime();
  const at = typeof now === 'number' ? now : now.getTime();
  return at - created <= ARCHIVE_SPLIT_DAYS * DAY_MS ? ARCHIVE_TYPE.within_30_days : ARCHIVE_TYPE.before_30_days;
}
