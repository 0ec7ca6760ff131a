import { expect } from 'vitest';
import { BETTING_OFFER_STATUS, EVENT_STATUS, SPORT } from '@dau/domain';
import type { SlipSelection } from '../../src/modules/betting/placement';
import { PRODUCER, type FeedMessageInput } from '../../src/modules/feed/messages';
import type { TestApp } from '../helpers';

/** The 1X2 market's key. */
export const X12 = '1|';

/**
 * Football matches of one test file, made through the feed's own messages: the file's tag names its event ids
 * (`sr:match:<tag><n>`) and its league, its messages carry a clock of their own, and each message is applied
 * with what betting does after it (`drain`) before the next. `app` is read when a message is sent (the file's
 * app is made in its `beforeAll`).
 */
export function feedMatches(app: () => TestApp, tag: string, league: string) {
  let clock = Date.now();
  const tick = () => (clock += 1000);
  const ev = (n: number) => `sr:match:${tag}${n}`;
  const send = async (m: FeedMessageInput) => {
    expect(await app().feed.ingest(m)).toMatchObject({ ok: true });
    await app().betting.drain();
  };
  /** A match in an hour with a bettable 1X2 market at these prices. */
  const match = async (n: number, prices: readonly [string, string, string] = ['2.00', '3.00', '4.00']) => {
    await send({
      type: 'fixture_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n), sport_id: SPORT.football,
      league_id: `sr:tournament:${tag}`, league_name: league, home_team: `Home ${n}`, away_team: `Away ${n}`,
      start_time: Date.now() + 3_600_000, status: EVENT_STATUS.not_started,
    });
    await send({
      type: 'odds_change', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n), event_status: EVENT_STATUS.not_started,
      markets: [{ id: 1, status: BETTING_OFFER_STATUS.bettable, outcomes: prices.map((p, i) => ({ id: String(i + 1), price: p, active: true })) }],
    });
  };
  /** A 1X2 pick of match `n`. */
  const pick = (n: number, outcome: string, odds: string): SlipSelection => ({ eventId: ev(n), marketKey: X12, outcomeId: outcome, odds });
  /** The settlement of match `n`'s 1X2 market: `winner` won, the other outcomes lost. */
  const settle = (n: number, winner: string): FeedMessageInput => ({
    type: 'bet_settlement', producer: PRODUCER.prematch, timestamp: tick(), event_id: ev(n),
    markets: [{ id: 1, outcomes: ['1', '2', '3'].map((id) => ({ id, result: id === winner ? 1 : 0 })) }],
  });
  return { tick, ev, send, match, pick, settle };
}
