/**
 * Writing Sportradar's Unified Odds Feed (UOF): the XML documents a real broker and API carry, with the
 * element and attribute names of the published schemas (UnifiedFeed.xsd, UnifiedFeedDescriptions.xsd,
 * UnifiedFeedResponse.xsd, fixtures_fixture.xsd), the AMQP routing keys they travel under and the keys a
 * client binds its queue to. Our sandbox speaks UOF with these, and the tests check ./xml.ts against them:
 * whatever is written here parses back to what was written.
 *
 * fromFeedMessage is the inverse of xml.ts toFeedMessage for what our simulator emits, so
 * toFeedMessage(parse(uofXml(fromFeedMessage(m)))) is m again (bet_stop and fixture_change aside: their
 * engine message needs API look-ups).
 */
import { XMLBuilder } from 'fast-xml-parser';
import { BETTING_OFFER_STATUS, EVENT_STATUS } from '@dau/domain';
import { feedMessageSchema, PRODUCER, type FeedMessageInput } from '../messages';
import type { UofFixture, UofMarketDescription, UofMarketStatus, UofMessage, UofProducer, UofResponse } from './types';

/** The declaration every UOF document starts with. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributesGroupName: '$',
  attributeNamePrefix: '',
  suppressEmptyNode: true,
  // active="true" stays an attribute with its value (not a bare `active`).
  suppressBooleanAttributes: false,
});

type Attrs = Record<string, string | number | boolean | undefined>;
/** Attributes without the absent ones (the builder would write "undefined"); booleans as UOF's 1 / 0. */
const attrs = (a: Attrs): Record<string, string | number> => {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(a)) if (v !== undefined) out[k] = typeof v === 'boolean' ? (v ? 1 : 0) : v;
  return out;
};
const doc = (tree: Record<string, unknown>) => `${XML_DECLARATION}\n${builder.build(tree) as string}`;
/** A list of child elements, or no key at all when empty. */
const children = <K extends string>(name: K, list: unknown[]) => (list.length ? ({ [name]: list } as Record<K, unknown[]>) : {});

// ---------------------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------------------

/**
 * sport_event_status@match_status (a sport-independent code of match_status_descriptions) that goes with
 * each status: 0 not started, 20 started, 81 suspended, 100 ended, 70 cancelled, 61 start delayed,
 * 80 interrupted, 60 postponed, 90 abandoned. The XSD requires it; we read only @status.
 */
const MATCH_STATUS: Readonly<Record<number, number>> = { 0: 0, 1: 20, 2: 81, 3: 100, 4: 100, 5: 70, 6: 61, 7: 80, 8: 60, 9: 90 };

const specs = (s: string) => (s ? s : undefined);

/**
 * The UOF XML document of a message, as the broker carries it: the XML declaration, then the root element
 * named after the message type with the XSD's attribute names (messageAttributes product, event_id,
 * timestamp, request_id first). Absent optional values are left out; a void_factor of 0 is left out too
 * (the XSD enumerates only 0.5 and 1: no attribute means no refund).
 */
export function uofXml(m: UofMessage): string {
  const head = { product: m.product, ...('event_id' in m && { event_id: m.event_id }), timestamp: m.timestamp, request_id: m.request_id };
  switch (m.type) {
    case 'odds_change':
      return doc({
        odds_change: {
          $: attrs(head),
          ...(m.event_status !== undefined && { sport_event_status: { $: attrs({ status: m.event_status, match_status: MATCH_STATUS[m.event_status] ?? 0 }) } }),
          odds: {
            $: attrs({ betting_status: m.betting_status, betstop_reason: m.betstop_reason }),
            ...children(
              'market',
              m.markets.map((k) => ({
                $: attrs({ id: k.id, specifiers: specs(k.specifiers), status: k.status }),
                ...children(
                  'outcome',
                  k.outcomes.map((o) => ({ $: attrs({ id: o.id, odds: o.odds, active: o.active }) })),
                ),
              })),
            ),
          },
        },
      });
    case 'bet_stop':
      return doc({ bet_stop: { $: attrs({ ...head, groups: m.groups.join('|'), market_status: m.market_status }) } });
    case 'bet_settlement':
      return doc({
        bet_settlement: {
          $: attrs({ ...head, certainty: m.certainty }),
          outcomes: {
            market: m.markets.map((k) => ({
              $: attrs({ id: k.id, specifiers: specs(k.specifiers), void_reason: k.void_reason }),
              outcome: k.outcomes.map((o) => ({
                $: attrs({ id: o.id, result: o.result, void_factor: o.void_factor || undefined, dead_heat_factor: o.dead_heat_factor }),
              })),
            })),
          },
        },
      });
    case 'rollback_bet_settlement':
      return doc({ rollback_bet_settlement: { $: attrs(head), market: m.markets.map((k) => ({ $: attrs({ id: k.id, specifiers: specs(k.specifiers) }) })) } });
    case 'bet_cancel':
      return doc({
        bet_cancel: {
          $: attrs({ ...head, start_time: m.start_time, end_time: m.end_time, superceded_by: m.superceded_by }),
          market: m.markets.map((k) => ({ $: attrs({ id: k.id, specifiers: specs(k.specifiers), void_reason: k.void_reason }) })),
        },
      });
    case 'rollback_bet_cancel':
      return doc({
        rollback_bet_cancel: {
          $: attrs({ ...head, start_time: m.start_time, end_time: m.end_time }),
          market: m.markets.map((k) => ({ $: attrs({ id: k.id, specifiers: specs(k.specifiers) }) })),
        },
      });
    case 'fixture_change':
      return doc({ fixture_change: { $: attrs({ ...head, change_type: m.change_type, start_time: m.start_time, next_live_time: m.next_live_time }) } });
    case 'alive':
      return doc({ alive: { $: attrs({ product: m.product, timestamp: m.timestamp, subscribed: m.subscribed }) } });
    case 'snapshot_complete':
      return doc({ snapshot_complete: { $: attrs({ request_id: m.request_id, product: m.product, timestamp: m.timestamp }) } });
  }
}

/**
 * EVENT_STATUS → sport_event_status@status (the inverse of xml.ts UOF_EVENT_STATUS where one exists):
 * not started 0, in progress 1 (live), ended 3 (ended: UOF's 4 "closed" means results confirmed, which
 * our engine learns from bet_settlement, not from the status), interrupted 7, cancelled 5, abandoned 9.
 * UOF has no walkover or retired status: both are 3 (ended) and come back as ended.
 */
export const EVENT_STATUS_TO_UOF: Readonly<Record<number, number>> = {
  [EVENT_STATUS.not_started]: 0,
  [EVENT_STATUS.in_progress]: 1,
  [EVENT_STATUS.ended]: 3,
  [EVENT_STATUS.interrupted]: 7,
  [EVENT_STATUS.cancelled]: 5,
  [EVENT_STATUS.walkover]: 3,
  [EVENT_STATUS.abandoned]: 9,
  [EVENT_STATUS.retired]: 3,
};

/**
 * BETTING_OFFER_STATUS → market@status (the inverse of xml.ts UOF_MARKET_STATUS): bettable 1, temporarily
 * removed -1, removed from feed 0, resolved -3, invalid -4. UOF has no market status for "no odds" or
 * "non participant": both are 0 (inactive) and come back as removed from feed.
 */
export const OFFER_STATUS_TO_UOF: Readonly<Record<number, UofMarketStatus>> = {
  [BETTING_OFFER_STATUS.bettable]: 1,
  [BETTING_OFFER_STATUS.temporarily_removed]: -1,
  [BETTING_OFFER_STATUS.removed_from_feed]: 0,
  [BETTING_OFFER_STATUS.no_odds]: 0,
  [BETTING_OFFER_STATUS.non_participant]: 0,
  [BETTING_OFFER_STATUS.resolved]: -3,
  [BETTING_OFFER_STATUS.invalid]: -4,
};

/** fixture_change@change_type: 1 new, 2 date/time, 3 cancelled, 4 format, 5 coverage. */
export const CHANGE_TYPE = { new: 1, datetime: 2, cancelled: 3, format: 4, coverage: 5 } as const;

/**
 * The UOF message that carries one of our simulator's messages (the sandbox speaks UOF with it), or null
 * for what UOF cannot carry:
 *  - producer_down / producer_up: not UOF messages (a client infers them from alive and snapshot_complete);
 *  - bet_cancel without markets: UOF's bet_cancel lists at least one market.
 * What UOF cannot say exactly:
 *  - bet_stop: UOF stops market groups, not markets, so it is always groups="all" (a bet stop of a few
 *    markets stops every market of the event: more, never less, than asked);
 *  - fixture_change: change_type is `opts.change_type`, else 3 (cancelled) for a cancelled event, else none
 *    (an "other" change); sport, league, teams and status are what the fixture API answers (fixtureXml);
 *  - bet_settlement: certainty 1 (live scouted) from the live producer, 2 (confirmed) from the others.
 * `opts.request_id` marks the message as part of a recovery (every message but alive). Throws on a message
 * the engine's schema refuses.
 */
export function fromFeedMessage(m: FeedMessageInput, opts?: { request_id?: number; change_type?: number }): UofMessage | null {
  const f = feedMessageSchema.parse(m);
  const head = { product: f.producer, timestamp: f.timestamp, ...(opts?.request_id !== undefined && { request_id: opts.request_id }) };
  switch (f.type) {
    case 'odds_change':
      return {
        type: 'odds_change',
        ...head,
        event_id: f.event_id,
        event_status: EVENT_STATUS_TO_UOF[f.event_status] ?? 0,
        markets: f.markets.map((k) => ({
          id: k.id,
          specifiers: k.specifiers,
          status: OFFER_STATUS_TO_UOF[k.status] ?? 0,
          outcomes: k.outcomes.map((o) => ({ id: o.id, ...(o.price !== undefined && { odds: o.price }), active: o.active })),
        })),
      };
    case 'bet_stop':
      return { type: 'bet_stop', ...head, event_id: f.event_id, groups: ['all'] };
    case 'bet_settlement':
      return {
        type: 'bet_settlement',
        ...head,
        event_id: f.event_id,
        certainty: f.producer === PRODUCER.live ? 1 : 2,
        markets: f.markets.map((k) => ({
          id: k.id,
          specifiers: k.specifiers,
          outcomes: k.outcomes.map((o) => ({
            id: o.id,
            result: o.result,
            ...(o.void_factor !== 0 && { void_factor: o.void_factor }),
            ...(o.dead_heat_factor !== undefined && { dead_heat_factor: o.dead_heat_factor }),
          })),
        })),
      };
    case 'rollback_bet_settlement':
      return { type: 'rollback_bet_settlement', ...head, event_id: f.event_id, markets: f.markets.map(({ id, specifiers }) => ({ id, specifiers })) };
    case 'bet_cancel':
    case 'rollback_bet_cancel':
      // UOF names at least one market: a cancel of the whole event without a list is not expressible.
      if (!f.markets?.length) return null;
      return {
        type: f.type,
        ...head,
        event_id: f.event_id,
        ...(f.start_time !== undefined && { start_time: f.start_time }),
        ...(f.end_time !== undefined && { end_time: f.end_time }),
        markets: f.markets.map(({ id, specifiers }) => ({ id, specifiers })),
      } as UofMessage;
    case 'fixture_change': {
      const change = opts?.change_type ?? (f.status === EVENT_STATUS.cancelled ? CHANGE_TYPE.cancelled : undefined);
      return { type: 'fixture_change', ...head, event_id: f.event_id, ...(change !== undefined && { change_type: change }), start_time: f.start_time };
    }
    case 'alive':
      return { type: 'alive', product: f.producer, timestamp: f.timestamp, subscribed: f.subscribed };
    case 'producer_down':
    case 'producer_up':
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Routing keys
// ---------------------------------------------------------------------------------------------------------

export type ProducerScope = 'live' | 'prematch' | 'virtual';
/** The scope of the producers we know (producers.xml scope): 1 LO live odds, 3 Ctrl pre-match. */
export const PRODUCT_SCOPE: Readonly<Record<number, ProducerScope>> = { [PRODUCER.live]: 'live', [PRODUCER.prematch]: 'prematch' };

/** Messages that are not timing sensitive: 'lo' priority (UOF: "bet_settlement messages are considered not timing sensitive"). */
const LOW_PRIORITY = new Set<UofMessage['type']>(['bet_settlement', 'rollback_bet_settlement']);

/**
 * The AMQP routing key UOF publishes a message under, eight dot-separated parts:
 * `{priority}.{prematch}.{live}.{message_type}.{sport_id}.{urn_type}.{event_id}.{node_id}`:
 *  - priority `hi`, or `lo` for bet_settlement and rollback_bet_settlement; `-` for system messages;
 *  - prematch `pre` from a pre-match producer, `virt` from a virtual one, else `-`;
 *  - live `live` from a live producer, else `-` (fixture_change is both: `hi.pre.live.fixture_change…`);
 *  - sport_id the UOF sport id (sr:sport:1 → 1; `-` when not given); urn_type and event_id the event URN
 *    split at its last colon (sr:match:12345 → `sr:match.12345`);
 *  - node_id the node that asked for the recovery this message belongs to (`opts.nodeId`), else `-`.
 * System messages: `-.-.-.alive.-.-.-.-`, `-.-.-.snapshot_complete.-.-.-.{node_id or -}`.
 * The producer's scope is PRODUCT_SCOPE (1 live, 3 pre-match) unless `opts.scope` says otherwise.
 */
export function routingKey(m: UofMessage, sportId?: number, opts?: { nodeId?: number; scope?: ProducerScope }): string {
  const node = opts?.nodeId !== undefined ? String(opts.nodeId) : '-';
  if (m.type === 'alive') return '-.-.-.alive.-.-.-.-';
  if (m.type === 'snapshot_complete') return `-.-.-.snapshot_complete.-.-.-.${node}`;
  const scope = opts?.scope ?? PRODUCT_SCOPE[m.product] ?? 'prematch';
  const fixture = m.type === 'fixture_change';
  const pre = scope === 'virtual' ? 'virt' : scope === 'prematch' || fixture ? 'pre' : '-';
  const live = scope === 'live' || (fixture && scope !== 'virtual') ? 'live' : '-';
  const cut = m.event_id.lastIndexOf(':');
  const [urnType, id] = [m.event_id.slice(0, cut), m.event_id.slice(cut + 1)];
  return [LOW_PRIORITY.has(m.type) ? 'lo' : 'hi', pre, live, m.type, sportId ?? '-', urnType, id, node].join('.');
}

/**
 * The routing keys a client binds its queue to, as the official SDKs build them from message interests
 * (pre-match only `*.pre.*.*.*.*.*`, live only `*.*.live.*.*.*.*`, virtual sports `*.virt.*.*.*.*.*` and
 * `*.*.virt.*.*.*.*`, everything `*.*.*.*.*.*.*`), each followed by the node part (`.#`; with a node id,
 * `.-.#` and `.{nodeId}.#`: its own recoveries and nobody's), plus the system messages `-.-.-.#` (with a
 * node id: alive, product_down and its own snapshot_complete). Throws when no interest is set.
 */
export function bindingKeys(interest: { prematch: boolean; live: boolean; virtuals: boolean }, nodeId?: number): string[] {
  const base =
    interest.prematch && interest.live && interest.virtuals
      ? ['*.*.*.*.*.*.*']
      : [
          ...(interest.prematch ? ['*.pre.*.*.*.*.*'] : []),
          ...(interest.live ? ['*.*.live.*.*.*.*'] : []),
          ...(interest.virtuals ? ['*.virt.*.*.*.*.*', '*.*.virt.*.*.*.*'] : []),
        ];
  if (!base.length) throw new Error('bindingKeys: no message interest (prematch, live or virtuals)');
  if (nodeId === undefined) return [...base.map((k) => `${k}.#`), '-.-.-.#'];
  return [
    ...base.flatMap((k) => [`${k}.-.#`, `${k}.${nodeId}.#`]),
    '-.-.-.alive.#',
    '-.-.-.product_down.#',
    `-.-.-.snapshot_complete.-.-.-.${nodeId}`,
  ];
}

// ---------------------------------------------------------------------------------------------------------
// API documents
// ---------------------------------------------------------------------------------------------------------

/** `/v1/descriptions/producers.xml`: `<producers response_code="OK">` with one `<producer>` each. */
export function producersXml(p: UofProducer[]): string {
  return doc({
    producers: {
      $: { response_code: 'OK' },
      ...children(
        'producer',
        p.map((x) => ({
          $: attrs({
            id: x.id,
            name: x.name,
            description: x.description,
            api_url: x.api_url,
            active: x.active ? 'true' : 'false',
            scope: x.scope.length ? x.scope.join('|') : undefined,
            stateful_recovery_window_in_minutes: x.stateful_recovery_window_in_minutes,
          }),
        })),
      ),
    },
  });
}

/** Epoch ms → xs:dateTime as the Sports API writes it ('2023-03-19T16:30:00+00:00'; milliseconds only when there are some). */
export const isoTime = (ms: number) => new Date(ms).toISOString().replace(/\.000Z$/, 'Z').replace(/Z$/, '+00:00');

/**
 * `/v1/sports/{lang}/sport_events/{urn}/fixture.xml`: `<fixtures_fixture>` (Sports API namespace) with
 * its `<fixture>` (start_time and scheduled both the start, status), `<tournament>` and its `<sport>`, and
 * `<competitors>`.
 */
export function fixtureXml(f: UofFixture): string {
  return doc({
    fixtures_fixture: {
      $: { xmlns: 'http://schemas.sportradar.com/sportsapi/v1/unified' },
      fixture: {
        $: attrs({ id: f.id, start_time: isoTime(f.start_time), scheduled: isoTime(f.start_time), status: f.status }),
        tournament: { $: attrs({ id: f.tournament.id, name: f.tournament.name }), sport: { $: attrs({ id: f.sport.id, name: f.sport.name }) } },
        ...(f.competitors.length > 0 && {
          competitors: { competitor: f.competitors.map((c) => ({ $: attrs({ qualifier: c.qualifier || undefined, id: c.id, name: c.name }) })) },
        }),
      },
    },
  });
}

/** `/v1/descriptions/{lang}/markets.xml`: `<market_descriptions response_code="OK">`, each market with its outcomes and specifiers. */
export function marketDescriptionsXml(d: UofMarketDescription[]): string {
  return doc({
    market_descriptions: {
      $: { response_code: 'OK' },
      ...children(
        'market',
        d.map((k) => ({
          $: attrs({ id: k.id, name: k.name, groups: k.groups.join('|') }),
          ...(k.outcomes.length > 0 && { outcomes: { outcome: k.outcomes.map((o) => ({ $: attrs({ id: o.id, name: o.name }) })) } }),
          ...(k.specifiers.length > 0 && { specifiers: { specifier: k.specifiers.map((s) => ({ $: attrs({ name: s.name, type: s.type }) })) } }),
        })),
      ),
    },
  });
}

/** The API's `<response response_code="…"><action>…</action></response>` (a recovery request's answer, or an error). */
export function responseXml(r: UofResponse): string {
  return doc({ response: { $: { response_code: r.response_code }, ...(r.action !== undefined && { action: r.action }), ...(r.message !== undefined && { message: r.message }) } });
}

const competitors = (a: string, b: string) => [
  { id: a, name: '{$competitor1}' },
  { id: b, name: '{$competitor2}' },
];
const handicap = [
  { id: '1714', name: '{$competitor1} ({+hcp})' },
  { id: '1715', name: '{$competitor2} ({-hcp})' },
];
const total = [
  { id: '13', name: 'under {total}' },
  { id: '12', name: 'over {total}' },
];

/**
 * The descriptions of the markets our simulator offers, with UOF's ids, names, groups and outcome ids
 * (the ids simulator.ts sends): football 1 '1x2' (1 home, 2 draw, 3 away), 16 'Handicap {hcp}' (1714 / 1715),
 * 18 'Total {total}' (12 over, 13 under); basketball 219 'Winner (incl. overtime)' (4 / 5),
 * 223 'Handicap {hcp} (incl. overtime)' (1714 / 1715), 225 'Total {total} (incl. overtime)' (12 / 13).
 */
export const MARKET_DESCRIPTIONS: UofMarketDescription[] = [
  {
    id: 1,
    name: '1x2',
    groups: ['all', 'score', 'regular_play'],
    outcomes: [{ id: '1', name: '{$competitor1}' }, { id: '2', name: 'draw' }, { id: '3', name: '{$competitor2}' }],
    specifiers: [],
  },
  { id: 16, name: 'Handicap {hcp}', groups: ['all', 'score', 'regular_play'], outcomes: handicap, specifiers: [{ name: 'hcp', type: 'decimal' }] },
  { id: 18, name: 'Total {total}', groups: ['all', 'score', 'regular_play'], outcomes: total, specifiers: [{ name: 'total', type: 'decimal' }] },
  { id: 219, name: 'Winner (incl. overtime)', groups: ['all', 'score', 'incl_ot'], outcomes: competitors('4', '5'), specifiers: [] },
  { id: 223, name: 'Handicap {hcp} (incl. overtime)', groups: ['all', 'score', 'incl_ot'], outcomes: handicap, specifiers: [{ name: 'hcp', type: 'decimal' }] },
  { id: 225, name: 'Total {total} (incl. overtime)', groups: ['all', 'score', 'incl_ot'], outcomes: total, specifiers: [{ name: 'total', type: 'decimal' }] },
];
