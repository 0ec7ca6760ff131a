/**
 * Sportradar's Unified Odds Feed (UOF) as the client sees it once a message's XML is parsed and checked
 * against the schema's shapes (./xml.ts): one discriminated union on the root element's name, attribute
 * names as UOF spells them, values typed (numbers, booleans 0/1 → boolean, URNs kept as strings).
 *
 * Times are epoch milliseconds as UOF sends them. `product` is the producer id (1 LO live odds, 3 Ctrl
 * pre-match, …). Specifiers are UOF's string ('total=2.5', 'hcp=0:1|variant=sr:exact_goals:6'), '' for none.
 */

/** UOF market status: 1 active, 0 inactive, -1 suspended, -2 handed over, -3 settled, -4 cancelled. */
export type UofMarketStatus = 1 | 0 | -1 | -2 | -3 | -4;

interface Base {
  product: number;
  timestamp: number;
  /** Present on the messages of a recovery (the request_id of initiate_request). */
  request_id?: number;
}
interface EventBase extends Base {
  /** The sport event's URN: 'sr:match:12345'. */
  event_id: string;
}
export interface UofMarketRef {
  id: number;
  specifiers: string;
}

export interface UofOddsChange extends EventBase {
  type: 'odds_change';
  /** sport_event_status@status: 0 not started, 1 live, 2 suspended, 3 ended, 4 closed, 5 cancelled, 6 delayed, 7 interrupted, 8 postponed, 9 abandoned. */
  event_status?: number;
  /** odds@betting_status / odds@betstop_reason when present. */
  betting_status?: number;
  betstop_reason?: number;
  markets: Array<UofMarketRef & { status: UofMarketStatus; outcomes: Array<{ id: string; odds?: string; active?: boolean }> }>;
}
export interface UofBetStop extends EventBase {
  type: 'bet_stop';
  /** groups="all" → ['all']; "score|1st_half" → ['score', '1st_half']. */
  groups: string[];
  /** market_status when present (default: suspended). */
  market_status?: number;
}
export interface UofBetSettlement extends EventBase {
  type: 'bet_settlement';
  /** 1 live scouted, 2 confirmed. */
  certainty?: number;
  markets: Array<
    UofMarketRef & { void_reason?: number; outcomes: Array<{ id: string; result: 0 | 1; void_factor?: number; dead_heat_factor?: number }> }
  >;
}
export interface UofRollbackBetSettlement extends EventBase {
  type: 'rollback_bet_settlement';
  markets: UofMarketRef[];
}
export interface UofBetCancel extends EventBase {
  type: 'bet_cancel';
  start_time?: number;
  end_time?: number;
  superceded_by?: string;
  markets: Array<UofMarketRef & { void_reason?: number }>;
}
export interface UofRollbackBetCancel extends EventBase {
  type: 'rollback_bet_cancel';
  start_time?: number;
  end_time?: number;
  markets: UofMarketRef[];
}
export interface UofFixtureChange extends EventBase {
  type: 'fixture_change';
  /** 1 new, 2 date/time, 3 cancelled, 4 format, 5 coverage, 106 stream url (absent: other change). */
  change_type?: number;
  start_time?: number;
  next_live_time?: number;
}
export interface UofAlive extends Base {
  type: 'alive';
  subscribed: boolean;
}
export interface UofSnapshotComplete extends Base {
  type: 'snapshot_complete';
  request_id: number;
}

export type UofMessage =
  | UofOddsChange
  | UofBetStop
  | UofBetSettlement
  | UofRollbackBetSettlement
  | UofBetCancel
  | UofRollbackBetCancel
  | UofFixtureChange
  | UofAlive
  | UofSnapshotComplete;
export type UofMessageType = UofMessage['type'];

/** A producer as `/v1/descriptions/producers.xml` describes it. */
export interface UofProducer {
  id: number;
  name: string;
  description: string;
  /** 'https://api.betradar.com/v1/liveodds/' → the product path used in recovery URLs: 'liveodds'. */
  api_url: string;
  active: boolean;
  /** 'live' | 'prematch' | 'virtual' (scope="live|prematch"). */
  scope: string[];
  stateful_recovery_window_in_minutes: number;
}

/** A sport event's fixture (`/v1/sports/{lang}/sport_events/{urn}/fixture.xml`). */
export interface UofFixture {
  id: string;
  /** ISO date-time of the scheduled start (fixture@start_time or @scheduled). */
  start_time: number;
  /** fixture@status (not_started, live, ended, closed, cancelled, postponed, delayed, interrupted, suspended, abandoned). */
  status?: string;
  sport: { id: string; name: string };
  tournament: { id: string; name: string };
  competitors: Array<{ id: string; name: string; qualifier: 'home' | 'away' | string }>;
}

/** A market's description (`/v1/descriptions/{lang}/markets.xml`). */
export interface UofMarketDescription {
  id: number;
  /** 'Total {total}', '1x2', '{$competitor1} total'. */
  name: string;
  groups: string[];
  /** The variant-free outcome names by outcome id: '1' → '{$competitor1}', '12' → 'over {total}'. */
  outcomes: Array<{ id: string; name: string }>;
  specifiers: Array<{ name: string; type: string }>;
}

/**
 * The API's plain answer (UnifiedFeedResponse.xsd `<response response_code="ACCEPTED">`): what a recovery
 * request (`POST /v1/{product}/recovery/initiate_request`, `…/odds/events/{urn}/initiate_request`) returns.
 */
export interface UofResponse {
  /** OK, CREATED, ACCEPTED, FORBIDDEN, NOT_FOUND, CONFLICT, SERVICE_UNAVAILABLE, NOT_IMPLEMENTED, MOVED_PERMANENTLY, BAD_REQUEST. */
  response_code: string;
  action?: string;
  message?: string;
}
