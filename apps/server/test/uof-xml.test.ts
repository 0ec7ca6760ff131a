/**
 * The UOF codec (src/modules/feed/uof/xml.ts, documents.ts): documents as Sportradar publishes them
 * (modelled on UnifiedFeed.xsd and the official SDKs' sample messages) parse to the expected UofMessage and
 * map to our engine's message; bad documents are refused with a reason, never a throw; what the writers
 * write parses back; our simulator's messages survive the trip through UOF; routing and binding keys.
 * No database.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BETTING_OFFER_STATUS, EVENT_STATUS } from '@dau/domain';
import { feedMessageSchema, PRODUCER, type FeedMessageInput } from '../src/modules/feed/messages.js';
import { SandboxProvider, FB, BB } from '../src/modules/feed/simulator.js';
import {
  bindingKeys,
  EVENT_STATUS_TO_UOF,
  fixtureXml,
  fromFeedMessage,
  MARKET_DESCRIPTIONS,
  marketDescriptionsXml,
  OFFER_STATUS_TO_UOF,
  producersXml,
  responseXml,
  routingKey,
  uofXml,
  XML_DECLARATION,
} from '../src/modules/feed/uof/documents.js';
import type { UofFixture, UofMessage, UofProducer } from '../src/modules/feed/uof/types.js';
import {
  parseFixture,
  parseMarketDescriptions,
  parseProducers,
  parseResponse,
  parseUofMessage,
  toFeedMessage,
  UOF_EVENT_STATUS,
} from '../src/modules/feed/uof/xml.js';

const BOM = '\uFEFF';
const DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

/** Parses and insists on success (the error in the failure message). */
function parsed(xml: string | Buffer): UofMessage {
  const r = parseUofMessage(xml);
  if (!r.ok) throw new Error(`expected a message, got: ${r.error}`);
  return r.message;
}
/** Parses and insists on a refusal; returns its reason. */
function refused(xml: string | Buffer): { error: string; unknownType?: boolean } {
  let r: ReturnType<typeof parseUofMessage> | undefined;
  expect(() => (r = parseUofMessage(xml))).not.toThrow();
  if (!r || r.ok) throw new Error(`expected a refusal, got ${JSON.stringify(r)}`);
  expect(r.error).toMatch(/\S/);
  return r;
}

describe('UOF messages as Sportradar publishes them', () => {
  it('odds_change: statuses, odds, inactive and handed-over markets', () => {
    const xml = `${BOM}${DECL}
<odds_change product="1" event_id="sr:match:10927088" timestamp="1487254396715" request_id="42">
  <sport_event_status status="1" reporting="1" match_status="6" home_score="0" away_score="2">
    <clock match_time="27:33"/>
    <period_scores>
      <period_score match_status_code="6" number="1" home_score="0" away_score="2"/>
    </period_scores>
  </sport_event_status>
  <odds_generation_properties expected_totals="2.5" expected_supremacy="0.1"/>
  <odds betting_status="1" betstop_reason="3">
    <market favourite="1" status="1" id="1">
      <outcome id="1" odds="6.5" probabilities="0.15" active="1"/>
      <outcome id="2" odds="3.9" probabilities="0.22396" active="1"/>
      <outcome id="3" odds="1.41" probabilities="0.6" active="1"/>
    </market>
    <market status="-1" id="18" specifiers="total=3.5" extended_specifiers="extended_total=3.5">
      <outcome id="12" odds="1.7" active="0"/>
      <outcome id="13" probabilities="0.91985" active="0"/>
    </market>
    <market status="-2" id="16" specifiers="hcp=0:1"/>
    <market status="-3" id="18" specifiers="total=1.5"/>
    <market status="-4" id="16" specifiers="hcp=-0.25"/>
    <market status="0" id="71" specifiers="variant=sr:exact_goals:4+">
      <outcome id="sr:exact_goals:4+:94" odds="1.5"/>
    </market>
    <market id="18" specifiers="total=4.5">
      <outcome id="12" odds="3.1" active="1"/>
    </market>
  </odds>
</odds_change>`;
    const u = parsed(xml);
    expect(u).toEqual({
      type: 'odds_change',
      product: 1,
      timestamp: 1487254396715,
      request_id: 42,
      event_id: 'sr:match:10927088',
      event_status: 1,
      betting_status: 1,
      betstop_reason: 3,
      markets: [
        {
          id: 1,
          specifiers: '',
          status: 1,
          outcomes: [
            { id: '1', odds: '6.5', active: true },
            { id: '2', odds: '3.9', active: true },
            { id: '3', odds: '1.41', active: true },
          ],
        },
        { id: 18, specifiers: 'total=3.5', status: -1, outcomes: [{ id: '12', odds: '1.7', active: false }, { id: '13', active: false }] },
        { id: 16, specifiers: 'hcp=0:1', status: -2, outcomes: [] },
        { id: 18, specifiers: 'total=1.5', status: -3, outcomes: [] },
        { id: 16, specifiers: 'hcp=-0.25', status: -4, outcomes: [] },
        { id: 71, specifiers: 'variant=sr:exact_goals:4+', status: 0, outcomes: [{ id: 'sr:exact_goals:4+:94', odds: '1.5' }] },
        // No status: read as 0 (inactive), as the official SDKs do.
        { id: 18, specifiers: 'total=4.5', status: 0, outcomes: [{ id: '12', odds: '3.1', active: true }] },
      ],
    });
    expect(toFeedMessage(u)).toEqual({
      type: 'odds_change',
      producer: 1,
      timestamp: 1487254396715,
      event_id: 'sr:match:10927088',
      event_status: EVENT_STATUS.in_progress,
      markets: [
        {
          id: 1,
          specifiers: '',
          status: BETTING_OFFER_STATUS.bettable,
          outcomes: [
            { id: '1', price: '6.5', active: true },
            { id: '2', price: '3.9', active: true },
            { id: '3', price: '1.41', active: true },
          ],
        },
        {
          id: 18,
          specifiers: 'total=3.5',
          status: BETTING_OFFER_STATUS.temporarily_removed,
          outcomes: [{ id: '12', price: '1.7', active: false }, { id: '13', active: false }],
        },
        // hcp=0:1 (handed over) is not there: the other producer takes it over.
        { id: 18, specifiers: 'total=1.5', status: BETTING_OFFER_STATUS.resolved, outcomes: [] },
        { id: 16, specifiers: 'hcp=-0.25', status: BETTING_OFFER_STATUS.invalid, outcomes: [] },
        // No active attribute: active.
        { id: 71, specifiers: 'variant=sr:exact_goals:4+', status: BETTING_OFFER_STATUS.removed_from_feed, outcomes: [{ id: 'sr:exact_goals:4+:94', price: '1.5', active: true }] },
        { id: 18, specifiers: 'total=4.5', status: BETTING_OFFER_STATUS.removed_from_feed, outcomes: [{ id: '12', price: '3.1', active: true }] },
      ],
    });
    // What the engine accepts.
    expect(feedMessageSchema.safeParse(toFeedMessage(u)).success).toBe(true);
  });

  it('odds_change without sport_event_status or odds: not started, no markets', () => {
    const u = parsed(`<odds_change product="3" event_id="sr:match:1" timestamp="1"/>`);
    expect(u).toEqual({ type: 'odds_change', product: 3, timestamp: 1, event_id: 'sr:match:1', markets: [] });
    expect(toFeedMessage(u)).toEqual({ type: 'odds_change', producer: 3, timestamp: 1, event_id: 'sr:match:1', event_status: EVENT_STATUS.not_started, markets: [] });
  });

  it('odds_change: every UOF event status maps as the table says', () => {
    const expected = [
      EVENT_STATUS.not_started, // 0 not started
      EVENT_STATUS.in_progress, // 1 live
      EVENT_STATUS.interrupted, // 2 suspended
      EVENT_STATUS.ended, // 3 ended
      EVENT_STATUS.ended, // 4 closed
      EVENT_STATUS.cancelled, // 5 cancelled
      EVENT_STATUS.not_started, // 6 delayed
      EVENT_STATUS.interrupted, // 7 interrupted
      EVENT_STATUS.not_started, // 8 postponed
      EVENT_STATUS.abandoned, // 9 abandoned
    ];
    for (let s = 0; s <= 9; s++) {
      const u = parsed(`<odds_change product="1" event_id="sr:match:1" timestamp="1"><sport_event_status status="${s}" match_status="0"/></odds_change>`);
      expect(toFeedMessage(u)).toMatchObject({ event_status: expected[s] });
      expect(UOF_EVENT_STATUS[s]).toBe(expected[s]);
    }
  });

  it('bet_stop: groups and market status; the client maps it (null here)', () => {
    const all = parsed(`${BOM}${DECL}\n<bet_stop groups="all" product="1" event_id="sr:match:9578495" timestamp="1465848395199"/>`);
    expect(all).toEqual({ type: 'bet_stop', product: 1, timestamp: 1465848395199, event_id: 'sr:match:9578495', groups: ['all'] });
    const some = parsed(`<bet_stop groups="score|1st_half" market_status="0" product="1" event_id="sr:match:1" timestamp="2" request_id="9"/>`);
    expect(some).toEqual({ type: 'bet_stop', product: 1, timestamp: 2, request_id: 9, event_id: 'sr:match:1', groups: ['score', '1st_half'], market_status: 0 });
    expect(toFeedMessage(all)).toBeNull();
  });

  it('bet_settlement: results, refunds, dead heat; undecided outcomes left out', () => {
    const xml = `${BOM}${DECL}
<bet_settlement certainty="2" product="3" event_id="sr:match:9583135" timestamp="1465855727378">
  <outcomes>
    <market id="1">
      <outcome id="1" result="1"/>
      <outcome id="2" result="0"/>
      <outcome id="3" result="0"/>
    </market>
    <market id="16" specifiers="hcp=-0.25" void_reason="12">
      <outcome id="1714" result="0" void_factor="0.5"/>
      <outcome id="1715" result="1" void_factor="0.5"/>
    </market>
    <market id="40" specifiers="variant=sr:goalscorer">
      <outcome id="sr:player:1" result="1" dead_heat_factor="0.5"/>
      <outcome id="sr:player:2" result="-1"/>
    </market>
    <market id="18" specifiers="total=2.5">
      <outcome id="12" result="-1"/>
      <outcome id="13" result="-1"/>
    </market>
  </outcomes>
</bet_settlement>`;
    const u = parsed(xml);
    expect(u).toEqual({
      type: 'bet_settlement',
      product: 3,
      timestamp: 1465855727378,
      event_id: 'sr:match:9583135',
      certainty: 2,
      markets: [
        { id: 1, specifiers: '', outcomes: [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0 }] },
        {
          id: 16,
          specifiers: 'hcp=-0.25',
          void_reason: 12,
          outcomes: [
            { id: '1714', result: 0, void_factor: 0.5 },
            { id: '1715', result: 1, void_factor: 0.5 },
          ],
        },
        { id: 40, specifiers: 'variant=sr:goalscorer', outcomes: [{ id: 'sr:player:1', result: 1, dead_heat_factor: 0.5 }] },
        // total=2.5: every outcome undecided (-1), nothing to settle yet.
      ],
    });
    const f = toFeedMessage(u);
    expect(f).toEqual({
      type: 'bet_settlement',
      producer: 3,
      timestamp: 1465855727378,
      event_id: 'sr:match:9583135',
      markets: [
        { id: 1, specifiers: '', outcomes: [{ id: '1', result: 1 }, { id: '2', result: 0 }, { id: '3', result: 0 }] },
        {
          id: 16,
          specifiers: 'hcp=-0.25',
          outcomes: [
            { id: '1714', result: 0, void_factor: 0.5 },
            { id: '1715', result: 1, void_factor: 0.5 },
          ],
        },
        { id: 40, specifiers: 'variant=sr:goalscorer', outcomes: [{ id: 'sr:player:1', result: 1, dead_heat_factor: 0.5 }] },
      ],
    });
    expect(feedMessageSchema.safeParse(f).success).toBe(true);
    // Only undecided outcomes: nothing for the engine.
    const undecided = parsed(`<bet_settlement certainty="1" product="1" event_id="sr:match:1" timestamp="1"><outcomes><market id="1"><outcome id="1" result="-1"/></market></outcomes></bet_settlement>`);
    expect(undecided).toMatchObject({ markets: [] });
    expect(toFeedMessage(undecided)).toBeNull();
  });

  it('bet_settlement without certainty (as in the SDK sample) still reads', () => {
    const u = parsed(`<bet_settlement product="1" event_id="sr:match:1" timestamp="1"><outcomes><market id="213" specifiers="setnr=3|gamenr=3" extended_specifiers="setnr=3|gamenr=3"><outcome id="70" result="0"/><outcome id="72" result="1"/></market></outcomes></bet_settlement>`);
    expect(u).toEqual({
      type: 'bet_settlement',
      product: 1,
      timestamp: 1,
      event_id: 'sr:match:1',
      markets: [{ id: 213, specifiers: 'setnr=3|gamenr=3', outcomes: [{ id: '70', result: 0 }, { id: '72', result: 1 }] }],
    });
  });

  it('rollback_bet_settlement', () => {
    const u = parsed(`${BOM}${DECL}
<rollback_bet_settlement product="1" event_id="sr:match:10237855" timestamp="1475958052704" request_id="1">
  <market id="18" specifiers="total=2.5"/>
  <market id="1"/>
</rollback_bet_settlement>`);
    expect(u).toEqual({
      type: 'rollback_bet_settlement',
      product: 1,
      timestamp: 1475958052704,
      request_id: 1,
      event_id: 'sr:match:10237855',
      markets: [
        { id: 18, specifiers: 'total=2.5' },
        { id: 1, specifiers: '' },
      ],
    });
    expect(toFeedMessage(u)).toEqual({
      type: 'rollback_bet_settlement',
      producer: 1,
      timestamp: 1475958052704,
      event_id: 'sr:match:10237855',
      markets: [
        { id: 18, specifiers: 'total=2.5' },
        { id: 1, specifiers: '' },
      ],
    });
  });

  it('bet_cancel: window, superseding event, void reason', () => {
    const u = parsed(`${BOM}${DECL}
<bet_cancel product="1" event_id="sr:match:10237855" timestamp="1475958052704" start_time="1475957000000" end_time="1475958000000" superceded_by="sr:match:10237856">
  <market id="312" specifiers="setnr=4|pointnr=45" extended_specifers="info1=10|info2=word" void_reason="8"/>
  <market id="314" />
</bet_cancel>`);
    expect(u).toEqual({
      type: 'bet_cancel',
      product: 1,
      timestamp: 1475958052704,
      event_id: 'sr:match:10237855',
      start_time: 1475957000000,
      end_time: 1475958000000,
      superceded_by: 'sr:match:10237856',
      markets: [
        { id: 312, specifiers: 'setnr=4|pointnr=45', void_reason: 8 },
        { id: 314, specifiers: '' },
      ],
    });
    expect(toFeedMessage(u)).toEqual({
      type: 'bet_cancel',
      producer: 1,
      timestamp: 1475958052704,
      event_id: 'sr:match:10237855',
      start_time: 1475957000000,
      end_time: 1475958000000,
      markets: [
        { id: 312, specifiers: 'setnr=4|pointnr=45' },
        { id: 314, specifiers: '' },
      ],
    });
    // Open window: no bounds.
    const open = parsed(`<bet_cancel product="3" event_id="sr:match:1" timestamp="5"><market id="1"/></bet_cancel>`);
    expect(toFeedMessage(open)).toEqual({ type: 'bet_cancel', producer: 3, timestamp: 5, event_id: 'sr:match:1', markets: [{ id: 1, specifiers: '' }] });
  });

  it('rollback_bet_cancel', () => {
    const u = parsed(`<rollback_bet_cancel product="1" event_id="sr:match:10237855" timestamp="1475958052704" start_time="1475957000000">
  <market id="312" specifiers="setnr=4|pointnr=45"/>
</rollback_bet_cancel>`);
    expect(u).toEqual({
      type: 'rollback_bet_cancel',
      product: 1,
      timestamp: 1475958052704,
      event_id: 'sr:match:10237855',
      start_time: 1475957000000,
      markets: [{ id: 312, specifiers: 'setnr=4|pointnr=45' }],
    });
    expect(toFeedMessage(u)).toEqual({
      type: 'rollback_bet_cancel',
      producer: 1,
      timestamp: 1475958052704,
      event_id: 'sr:match:10237855',
      start_time: 1475957000000,
      markets: [{ id: 312, specifiers: 'setnr=4|pointnr=45' }],
    });
  });

  it('fixture_change: change type and times; the client maps it (null here)', () => {
    const u = parsed(`${BOM}${DECL}\n<fixture_change status="0" start_time="1466436600000" product="1" change_type="2" event_id="sr:match:8816128" timestamp="1465848168312" next_live_time="1466436600000"/>`);
    expect(u).toEqual({
      type: 'fixture_change',
      product: 1,
      timestamp: 1465848168312,
      event_id: 'sr:match:8816128',
      change_type: 2,
      start_time: 1466436600000,
      next_live_time: 1466436600000,
    });
    expect(toFeedMessage(u)).toBeNull();
  });

  it('alive (from a Buffer, as AMQP delivers it)', () => {
    const u = parsed(Buffer.from(`${BOM}${DECL}\n<alive product="1" timestamp="1465848166722" subscribed="1"/>`, 'utf8'));
    expect(u).toEqual({ type: 'alive', product: 1, timestamp: 1465848166722, subscribed: true });
    expect(toFeedMessage(u)).toEqual({ type: 'alive', producer: 1, timestamp: 1465848166722, subscribed: true });
    const off = parsed(`<alive product="3" timestamp="2" subscribed="0"/>`);
    expect(toFeedMessage(off)).toEqual({ type: 'alive', producer: 3, timestamp: 2, subscribed: false });
  });

  it('snapshot_complete: the recovery it ends; the client maps it (null here)', () => {
    const u = parsed(`${BOM}${DECL}\n<snapshot_complete request_id="1" product="1" timestamp="1475958139957"/>`);
    expect(u).toEqual({ type: 'snapshot_complete', product: 1, timestamp: 1475958139957, request_id: 1 });
    expect(toFeedMessage(u)).toBeNull();
  });
});

describe('bad UOF messages are refused with a reason, never a throw', () => {
  const cases: [string, string | Buffer, RegExp][] = [
    ['not XML at all', 'hello', /not XML/],
    ['empty', '', /empty/],
    ['empty buffer', Buffer.alloc(0), /empty/],
    ['JSON', '{"type":"alive"}', /not XML/],
    ['truncated', `<odds_change product="1" event_id="sr:match:1" timestamp="1"><odds>`, /not XML/],
    ['two roots', `<alive product="1" timestamp="1" subscribed="1"/><alive product="1" timestamp="1" subscribed="1"/>`, /2 root elements/],
    ['a DOCTYPE', `<!DOCTYPE alive [<!ENTITY x "1">]><alive product="&x;" timestamp="1" subscribed="1"/>`, /DOCTYPE/],
    ['missing product', `<alive timestamp="1" subscribed="1"/>`, /alive @product: required attribute is missing/],
    ['missing subscribed', `<alive product="1" timestamp="1"/>`, /@subscribed: required attribute is missing/],
    ['missing groups', `<bet_stop product="1" event_id="sr:match:1" timestamp="1"/>`, /@groups: required attribute is missing/],
    ['missing event_id', `<bet_stop groups="all" product="1" timestamp="1"/>`, /@event_id: required attribute is missing/],
    ['event_id not a URN', `<bet_stop groups="all" product="1" event_id="12345" timestamp="1"/>`, /@event_id: must be a URN/],
    ['timestamp not a number', `<alive product="1" timestamp="yesterday" subscribed="1"/>`, /@timestamp: must be a non-negative integer/],
    ['subscribed not 0/1', `<alive product="1" timestamp="1" subscribed="true"/>`, /@subscribed: must be 0 or 1/],
    ['missing fixture start_time', `<fixture_change product="1" event_id="sr:match:1" timestamp="1"/>`, /@start_time: required attribute is missing/],
    ['snapshot_complete without request_id', `<snapshot_complete product="1" timestamp="1"/>`, /@request_id: required attribute is missing/],
    [
      'odds of 1',
      `<odds_change product="1" event_id="sr:match:1" timestamp="1"><odds><market id="1" status="1"><outcome id="1" odds="1.00" active="1"/></market></odds></odds_change>`,
      /odds > market\[0\] > outcome\[0\] @odds: odds must be greater than 1/,
    ],
    [
      'odds not a number',
      `<odds_change product="1" event_id="sr:match:1" timestamp="1"><odds><market id="1" status="1"><outcome id="1" odds="abc"/></market></odds></odds_change>`,
      /@odds: odds must be a decimal number/,
    ],
    [
      'negative odds',
      `<odds_change product="1" event_id="sr:match:1" timestamp="1"><odds><market id="1" status="1"><outcome id="1" odds="-2.5"/></market></odds></odds_change>`,
      /@odds: odds must be a decimal number/,
    ],
    [
      'market status out of range',
      `<odds_change product="1" event_id="sr:match:1" timestamp="1"><odds><market id="1" status="2"/></odds></odds_change>`,
      /market\[0\] @status: market status must be one of/,
    ],
    [
      'event status out of range',
      `<odds_change product="1" event_id="sr:match:1" timestamp="1"><sport_event_status status="10" match_status="0"/></odds_change>`,
      /sport_event_status @status: event status must be 0\.\.9/,
    ],
    [
      'outcome without id',
      `<odds_change product="1" event_id="sr:match:1" timestamp="1"><odds><market id="1" status="1"><outcome odds="1.5"/></market></odds></odds_change>`,
      /outcome\[0\] @id: required attribute is missing/,
    ],
    [
      'result out of range',
      `<bet_settlement certainty="1" product="1" event_id="sr:match:1" timestamp="1"><outcomes><market id="1"><outcome id="1" result="2"/></market></outcomes></bet_settlement>`,
      /@result: result must be 0, 1 or -1/,
    ],
    [
      'void_factor the engine cannot pay',
      `<bet_settlement certainty="1" product="1" event_id="sr:match:1" timestamp="1"><outcomes><market id="1"><outcome id="1" result="0" void_factor="0.3"/></market></outcomes></bet_settlement>`,
      /@void_factor: void_factor must be 0, 0\.5 or 1/,
    ],
    [
      'dead_heat_factor of 0',
      `<bet_settlement certainty="1" product="1" event_id="sr:match:1" timestamp="1"><outcomes><market id="1"><outcome id="1" result="1" dead_heat_factor="0"/></market></outcomes></bet_settlement>`,
      /@dead_heat_factor: dead_heat_factor must be in \(0, 1\]/,
    ],
    ['settlement without markets', `<bet_settlement certainty="1" product="1" event_id="sr:match:1" timestamp="1"><outcomes/></bet_settlement>`, /at least one market/],
    [
      'odds twice (the XSD allows one)',
      `<odds_change product="1" event_id="sr:match:1" timestamp="1"><odds><market id="1" status="1"/></odds><odds/></odds_change>`,
      /odds_change > odds: .*expected object, received array/,
    ],
    ['bet_cancel without markets', `<bet_cancel product="1" event_id="sr:match:1" timestamp="1"/>`, /bet_cancel > market: at least one market/],
  ];
  for (const [name, xml, reason] of cases)
    it(name, () => {
      const r = refused(xml);
      expect(r.error).toMatch(reason);
      expect(r.unknownType).toBeUndefined();
    });

  it('an unknown root element is flagged unknownType', () => {
    for (const root of ['product_down', 'cashout', 'fixture', 'constructor__']) {
      const r = refused(`<${root} product="1" timestamp="1"/>`);
      expect(r.unknownType).toBe(true);
      expect(r.error).toContain(`<${root}>`);
    }
  });

  it('a reserved JavaScript name as root is refused, not obeyed', () => {
    for (const root of ['__proto__', 'constructor', 'prototype']) {
      const r = refused(`<${root} product="1" timestamp="1"/>`);
      expect(r.error).toMatch(/\S/);
    }
    expect(({} as Record<string, unknown>).product).toBeUndefined();
  });

  it('never throws, whatever the bytes (cut, spliced and random documents)', () => {
    const sample = uofXml({
      type: 'odds_change',
      product: 1,
      timestamp: 1,
      event_id: 'sr:match:1',
      event_status: 1,
      markets: [{ id: 1, specifiers: '', status: 1, outcomes: [{ id: '1', odds: '1.5', active: true }] }],
    });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: sample.length }), fc.integer({ min: 0, max: sample.length }), fc.string(), (a, b, junk) => {
        const [lo, hi] = a < b ? [a, b] : [b, a];
        for (const body of [sample.slice(0, lo), sample.slice(0, lo) + junk + sample.slice(hi), junk]) {
          const r = parseUofMessage(body);
          expect(typeof r.ok).toBe('boolean');
          if (!r.ok) expect(r.error.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------------------

/** Our message → UOF → XML → parsed → our message again. */
const throughUof = (m: FeedMessageInput, opts?: { request_id?: number }) => {
  const u = fromFeedMessage(m, opts);
  if (!u) return null;
  const xml = uofXml(u);
  expect(xml.startsWith(`${XML_DECLARATION}\n<${u.type} `)).toBe(true);
  const back = parsed(xml);
  expect(back).toEqual(u);
  return toFeedMessage(back);
};
/** Needs API look-ups to become our message again: checked separately. */
const NEEDS_LOOKUP = new Set(['bet_stop', 'fixture_change']);

/** Every message of a busy simulated week-end: cancellations, windows, rollbacks, outages. */
function simulatorMessages(seed: number): FeedMessageInput[] {
  const out: FeedMessageInput[] = [];
  const p = new SandboxProvider({
    seed,
    startTime: Date.UTC(2026, 10, 21, 14, 0, 0),
    emit: (m) => out.push(m),
    footballMatches: 8,
    basketballMatches: 4,
    cancelMatchRate: 0.5,
    cancelWindowRate: 1,
    rollbackRate: 0.5,
    downRate: 0.01,
    days: 1,
  });
  p.start();
  p.run(36 * 60);
  return out;
}

describe('our messages survive the trip through UOF', () => {
  it('every message the simulator sends', () => {
    const all = [...simulatorMessages(7), ...simulatorMessages(2026)];
    const seen = new Set<string>();
    for (const m of all) {
      seen.add(m.type);
      const back = throughUof(m, { request_id: 3 });
      if (m.type === 'producer_down' || m.type === 'producer_up') {
        expect(back).toBeNull();
        continue;
      }
      if (NEEDS_LOOKUP.has(m.type)) continue;
      expect(back, JSON.stringify(m)).not.toBeNull();
      expect(feedMessageSchema.parse(back)).toEqual(feedMessageSchema.parse(m));
    }
    // The run covered every kind of message (else this test proves less than it says).
    for (const t of ['fixture_change', 'odds_change', 'bet_stop', 'bet_settlement', 'bet_cancel', 'rollback_bet_settlement', 'rollback_bet_cancel', 'alive', 'producer_down', 'producer_up'])
      expect(seen, t).toContain(t);
  });

  // Arbitrary messages of the shapes the engine takes (statuses UOF can say both ways).
  const ts = fc.integer({ min: 0, max: 4_102_444_800_000 });
  const producer = fc.constantFrom(PRODUCER.live, PRODUCER.prematch);
  const eventId = fc.integer({ min: 1, max: 99_999_999 }).map((n) => `sr:match:${n}`);
  const specifiers = fc.constantFrom('', 'total=2.5', 'hcp=-0.25', 'hcp=0:1', 'variant=sr:exact_goals:4+', 'setnr=3|gamenr=2', 'a=<"&\'>');
  const ref = fc.record({ id: fc.integer({ min: 1, max: 2000 }), specifiers });
  const price = fc.tuple(fc.integer({ min: 1, max: 999 }), fc.constantFrom('', '.5', '.05', '.85', '.01', '.10', '.1234')).map(([i, d]) => `${i}${d}`).filter((s) => Number(s) > 1);
  const outcomeId = fc.constantFrom('1', '2', '3', '4', '5', '12', '13', '1714', '1715', 'sr:player:7', 'sr:exact_goals:4+:94');
  const oddsChange = fc.record({
    type: fc.constant('odds_change' as const),
    producer,
    timestamp: ts,
    event_id: eventId,
    event_status: fc.constantFrom(EVENT_STATUS.not_started, EVENT_STATUS.in_progress, EVENT_STATUS.ended, EVENT_STATUS.interrupted, EVENT_STATUS.cancelled, EVENT_STATUS.abandoned),
    markets: fc.array(
      ref.chain((r) =>
        fc.record({
          id: fc.constant(r.id),
          specifiers: fc.constant(r.specifiers),
          status: fc.constantFrom(
            BETTING_OFFER_STATUS.bettable,
            BETTING_OFFER_STATUS.temporarily_removed,
            BETTING_OFFER_STATUS.removed_from_feed,
            BETTING_OFFER_STATUS.resolved,
            BETTING_OFFER_STATUS.invalid,
          ),
          outcomes: fc.array(fc.record({ id: outcomeId, price: fc.option(price, { nil: undefined }), active: fc.boolean() }, { requiredKeys: ['id', 'active'] }), { maxLength: 4 }),
        }),
      ),
      { maxLength: 5 },
    ),
  });
  const settlement = fc.record({
    type: fc.constant('bet_settlement' as const),
    producer,
    timestamp: ts,
    event_id: eventId,
    markets: fc.array(
      fc.record({
        id: fc.integer({ min: 1, max: 2000 }),
        specifiers,
        outcomes: fc.array(
          fc.record(
            {
              id: outcomeId,
              result: fc.constantFrom(0 as const, 1 as const),
              void_factor: fc.constantFrom(0 as const, 0.5 as const, 1 as const),
              dead_heat_factor: fc.constantFrom(0.5, 1, 0.25, 1 / 3),
            },
            { requiredKeys: ['id', 'result'] },
          ),
          { minLength: 1, maxLength: 4 },
        ),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  });
  const window = fc.option(
    fc.tuple(fc.option(ts, { nil: undefined }), fc.option(ts, { nil: undefined })).map(([a, b]) => (a !== undefined && b !== undefined && a >= b ? { start_time: b, end_time: a + 1 } : { start_time: a, end_time: b })),
    { nil: {} },
  );
  const clean = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
  const cancel = fc
    .record({ type: fc.constantFrom('bet_cancel' as const, 'rollback_bet_cancel' as const), producer, timestamp: ts, event_id: eventId, w: window, markets: fc.array(ref, { minLength: 1, maxLength: 4 }) })
    .map(({ w, ...m }) => clean({ ...m, ...w }));
  const rollback = fc.record({ type: fc.constant('rollback_bet_settlement' as const), producer, timestamp: ts, event_id: eventId, markets: fc.array(ref, { minLength: 1, maxLength: 4 }) });
  const alive = fc.record({ type: fc.constant('alive' as const), producer, timestamp: ts, subscribed: fc.boolean() });

  it('arbitrary odds changes, settlements, cancels, rollbacks and alives', () => {
    fc.assert(
      fc.property(fc.oneof(oddsChange, settlement, cancel, rollback, alive), fc.option(fc.integer({ min: 1, max: 1e9 }), { nil: undefined }), (m, requestId) => {
        const input = m as FeedMessageInput;
        expect(feedMessageSchema.safeParse(input).success).toBe(true);
        const back = throughUof(input, { request_id: requestId });
        expect(feedMessageSchema.parse(back)).toEqual(feedMessageSchema.parse(input));
      }),
      { numRuns: 400 },
    );
  });

  it('bet_stop becomes groups="all" (a market list is not expressible in UOF)', () => {
    for (const m of [
      { type: 'bet_stop', producer: 1, timestamp: 5, event_id: 'sr:match:1' },
      { type: 'bet_stop', producer: 1, timestamp: 5, event_id: 'sr:match:1', markets: [{ id: FB.total, specifiers: 'total=2.5' }] },
    ] as FeedMessageInput[]) {
      const u = fromFeedMessage(m, { request_id: 4 });
      expect(u).toEqual({ type: 'bet_stop', product: 1, timestamp: 5, request_id: 4, event_id: 'sr:match:1', groups: ['all'] });
      expect(parsed(uofXml(u!))).toEqual(u);
      expect(uofXml(u!)).toContain('groups="all"');
    }
  });

  it('fixture_change carries its start, and a change type when known', () => {
    const m: FeedMessageInput = {
      type: 'fixture_change',
      producer: PRODUCER.prematch,
      timestamp: 10,
      event_id: 'sr:match:77',
      sport_id: 1,
      league_id: 'sr:tournament:17',
      league_name: 'Premier League',
      home_team: 'Arsenal',
      away_team: 'Chelsea',
      start_time: 1_800_000_000_000,
      status: EVENT_STATUS.not_started,
    };
    expect(fromFeedMessage(m)).toEqual({ type: 'fixture_change', product: 3, timestamp: 10, event_id: 'sr:match:77', start_time: 1_800_000_000_000 });
    expect(fromFeedMessage(m, { change_type: 1 })).toMatchObject({ change_type: 1 });
    const cancelled = fromFeedMessage({ ...m, status: EVENT_STATUS.cancelled })!;
    expect(cancelled).toMatchObject({ change_type: 3 });
    expect(parsed(uofXml(cancelled))).toEqual(cancelled);
  });

  it('what UOF cannot carry: producer_down/up, a cancel of every market', () => {
    expect(fromFeedMessage({ type: 'producer_down', producer: 1, timestamp: 1 })).toBeNull();
    expect(fromFeedMessage({ type: 'producer_up', producer: 1, timestamp: 1 })).toBeNull();
    expect(fromFeedMessage({ type: 'bet_cancel', producer: 1, timestamp: 1, event_id: 'sr:match:1' })).toBeNull();
  });

  it('our statuses in UOF words', () => {
    expect(EVENT_STATUS_TO_UOF).toEqual({
      [EVENT_STATUS.not_started]: 0,
      [EVENT_STATUS.in_progress]: 1,
      [EVENT_STATUS.ended]: 3,
      [EVENT_STATUS.interrupted]: 7,
      [EVENT_STATUS.cancelled]: 5,
      [EVENT_STATUS.walkover]: 3,
      [EVENT_STATUS.abandoned]: 9,
      [EVENT_STATUS.retired]: 3,
    });
    expect(OFFER_STATUS_TO_UOF).toEqual({
      [BETTING_OFFER_STATUS.bettable]: 1,
      [BETTING_OFFER_STATUS.temporarily_removed]: -1,
      [BETTING_OFFER_STATUS.removed_from_feed]: 0,
      [BETTING_OFFER_STATUS.no_odds]: 0,
      [BETTING_OFFER_STATUS.non_participant]: 0,
      [BETTING_OFFER_STATUS.resolved]: -3,
      [BETTING_OFFER_STATUS.invalid]: -4,
    });
    const xml = uofXml(
      fromFeedMessage({
        type: 'odds_change',
        producer: 1,
        timestamp: 1,
        event_id: 'sr:match:1',
        event_status: EVENT_STATUS.interrupted,
        markets: [{ id: 1, status: BETTING_OFFER_STATUS.temporarily_removed, outcomes: [{ id: '1', price: '2.5', active: false }] }],
      })!,
    );
    expect(xml).toContain('<sport_event_status status="7" match_status="80"/>');
    expect(xml).toContain('<market id="1" status="-1"><outcome id="1" odds="2.5" active="0"/></market>');
  });

  it('statuses UOF has no word for come back as their nearest', () => {
    const odds = (event_status: number, status: number): FeedMessageInput => ({
      type: 'odds_change',
      producer: 1,
      timestamp: 1,
      event_id: 'sr:match:1',
      event_status,
      markets: [{ id: 1, status, outcomes: [] }],
    });
    expect(throughUof(odds(EVENT_STATUS.walkover, BETTING_OFFER_STATUS.no_odds))).toMatchObject({
      event_status: EVENT_STATUS.ended,
      markets: [{ status: BETTING_OFFER_STATUS.removed_from_feed }],
    });
    expect(throughUof(odds(EVENT_STATUS.retired, BETTING_OFFER_STATUS.non_participant))).toMatchObject({
      event_status: EVENT_STATUS.ended,
      markets: [{ status: BETTING_OFFER_STATUS.removed_from_feed }],
    });
  });

  it('a settlement from the live producer is live scouted, from pre-match confirmed', () => {
    const s = (producer: number): FeedMessageInput => ({ type: 'bet_settlement', producer, timestamp: 1, event_id: 'sr:match:1', markets: [{ id: 1, outcomes: [{ id: '1', result: 1 }] }] });
    expect(uofXml(fromFeedMessage(s(PRODUCER.live))!)).toContain('certainty="1"');
    expect(uofXml(fromFeedMessage(s(PRODUCER.prematch))!)).toContain('certainty="2"');
    // No refund: no void_factor attribute (the XSD enumerates 0.5 and 1 only).
    expect(uofXml(fromFeedMessage(s(PRODUCER.live))!)).not.toContain('void_factor');
  });
});

// ---------------------------------------------------------------------------------------------------------
// Routing
// ---------------------------------------------------------------------------------------------------------

/** AMQP topic matching: `*` one word, `#` zero or more. */
function topicMatches(pattern: string, key: string): boolean {
  const p = pattern.split('.');
  const k = key.split('.');
  const go = (i: number, j: number): boolean => {
    if (i === p.length) return j === k.length;
    if (p[i] === '#') return go(i + 1, j) || (j < k.length && go(i, j + 1));
    return j < k.length && (p[i] === '*' || p[i] === k[j]) && go(i + 1, j + 1);
  };
  return go(0, 0);
}
const routed = (keys: string[], key: string) => keys.some((b) => topicMatches(b, key));

describe('routing keys', () => {
  const ev = { product: 1, timestamp: 1, event_id: 'sr:match:12345' };
  it('as UOF publishes them', () => {
    expect(routingKey({ type: 'odds_change', ...ev, markets: [] }, 1)).toBe('hi.-.live.odds_change.1.sr:match.12345.-');
    expect(routingKey({ type: 'odds_change', ...ev, product: 3, markets: [] }, 1)).toBe('hi.pre.-.odds_change.1.sr:match.12345.-');
    expect(routingKey({ type: 'bet_stop', ...ev, groups: ['all'] }, 2)).toBe('hi.-.live.bet_stop.2.sr:match.12345.-');
    expect(routingKey({ type: 'bet_settlement', ...ev, markets: [] }, 1)).toBe('lo.-.live.bet_settlement.1.sr:match.12345.-');
    expect(routingKey({ type: 'bet_settlement', ...ev, product: 3, markets: [] }, 1)).toBe('lo.pre.-.bet_settlement.1.sr:match.12345.-');
    expect(routingKey({ type: 'rollback_bet_settlement', ...ev, markets: [] }, 1)).toBe('lo.-.live.rollback_bet_settlement.1.sr:match.12345.-');
    expect(routingKey({ type: 'bet_cancel', ...ev, markets: [] }, 1)).toBe('hi.-.live.bet_cancel.1.sr:match.12345.-');
    expect(routingKey({ type: 'rollback_bet_cancel', ...ev, markets: [] }, 1)).toBe('hi.-.live.rollback_bet_cancel.1.sr:match.12345.-');
    expect(routingKey({ type: 'fixture_change', ...ev, product: 3, start_time: 1 }, 1)).toBe('hi.pre.live.fixture_change.1.sr:match.12345.-');
    expect(routingKey({ type: 'alive', product: 1, timestamp: 1, subscribed: true })).toBe('-.-.-.alive.-.-.-.-');
    expect(routingKey({ type: 'snapshot_complete', product: 1, timestamp: 1, request_id: 5 })).toBe('-.-.-.snapshot_complete.-.-.-.-');
    expect(routingKey({ type: 'snapshot_complete', product: 1, timestamp: 1, request_id: 5 }, undefined, { nodeId: 1 })).toBe('-.-.-.snapshot_complete.-.-.-.1');
    // Sport unknown; a recovery asked by node 7; a virtual producer.
    expect(routingKey({ type: 'odds_change', ...ev, markets: [] })).toBe('hi.-.live.odds_change.-.sr:match.12345.-');
    expect(routingKey({ type: 'odds_change', ...ev, request_id: 9, markets: [] }, 1, { nodeId: 7 })).toBe('hi.-.live.odds_change.1.sr:match.12345.7');
    expect(routingKey({ type: 'odds_change', ...ev, product: 6, event_id: 'vs:match:1234', markets: [] }, 1, { scope: 'virtual' })).toBe('hi.virt.-.odds_change.1.vs:match.1234.-');
  });

  it('binding keys as the SDK builds them from message interests', () => {
    expect(bindingKeys({ prematch: true, live: true, virtuals: false })).toEqual(['*.pre.*.*.*.*.*.#', '*.*.live.*.*.*.*.#', '-.-.-.#']);
    expect(bindingKeys({ prematch: false, live: true, virtuals: false })).toEqual(['*.*.live.*.*.*.*.#', '-.-.-.#']);
    expect(bindingKeys({ prematch: true, live: true, virtuals: true })).toEqual(['*.*.*.*.*.*.*.#', '-.-.-.#']);
    expect(bindingKeys({ prematch: false, live: false, virtuals: true })).toEqual(['*.virt.*.*.*.*.*.#', '*.*.virt.*.*.*.*.#', '-.-.-.#']);
    expect(bindingKeys({ prematch: false, live: true, virtuals: false }, 7)).toEqual([
      '*.*.live.*.*.*.*.-.#',
      '*.*.live.*.*.*.*.7.#',
      '-.-.-.alive.#',
      '-.-.-.product_down.#',
      '-.-.-.snapshot_complete.-.-.-.7',
    ]);
    expect(() => bindingKeys({ prematch: false, live: false, virtuals: false })).toThrow(/no message interest/);
  });

  it('a queue bound for an interest gets exactly the messages of that interest', () => {
    const live = bindingKeys({ prematch: false, live: true, virtuals: false });
    const pre = bindingKeys({ prematch: true, live: false, virtuals: false });
    const node7 = bindingKeys({ prematch: true, live: true, virtuals: false }, 7);
    const liveOdds = routingKey({ type: 'odds_change', ...ev, markets: [] }, 1);
    const preOdds = routingKey({ type: 'odds_change', ...ev, product: 3, markets: [] }, 1);
    const fixture = routingKey({ type: 'fixture_change', ...ev, product: 3, start_time: 1 }, 1);
    const aliveKey = routingKey({ type: 'alive', product: 1, timestamp: 1, subscribed: true });
    const snap = (nodeId?: number) => routingKey({ type: 'snapshot_complete', product: 1, timestamp: 1, request_id: 1 }, undefined, { nodeId });
    expect([routed(live, liveOdds), routed(live, preOdds), routed(live, fixture), routed(live, aliveKey), routed(live, snap())]).toEqual([true, false, true, true, true]);
    expect([routed(pre, liveOdds), routed(pre, preOdds), routed(pre, fixture), routed(pre, aliveKey)]).toEqual([false, true, true, true]);
    // Node 7: its own recoveries and the unaddressed messages, not node 8's.
    const recovered = (nodeId: number) => routingKey({ type: 'odds_change', ...ev, request_id: 1, markets: [] }, 1, { nodeId });
    expect([routed(node7, liveOdds), routed(node7, recovered(7)), routed(node7, recovered(8)), routed(node7, snap(7)), routed(node7, snap(8)), routed(node7, aliveKey)]).toEqual([
      true,
      true,
      false,
      true,
      false,
      true,
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------
// API documents
// ---------------------------------------------------------------------------------------------------------

describe('API documents', () => {
  it('producers.xml as the API answers it', () => {
    const xml = `${BOM}${DECL}
<producers response_code="OK">
    <producer id="1" name="LO" description="Live Odds" api_url="https://api.betradar.com/v1/liveodds/" active="true" scope="live" stateful_recovery_window_in_minutes="600"/>
    <producer id="3" name="Ctrl" description="Betradar Ctrl" api_url="https://api.betradar.com/v1/pre/" active="true" scope="prematch" stateful_recovery_window_in_minutes="4320"/>
    <producer id="5" name="PremiumCricket" description="Premium Cricket" api_url="https://api.betradar.com/v1/premium_cricket/" active="false" scope="live|prematch" stateful_recovery_window_in_minutes="4320"/>
</producers>`;
    expect(parseProducers(xml)).toEqual([
      { id: 1, name: 'LO', description: 'Live Odds', api_url: 'https://api.betradar.com/v1/liveodds/', active: true, scope: ['live'], stateful_recovery_window_in_minutes: 600 },
      { id: 3, name: 'Ctrl', description: 'Betradar Ctrl', api_url: 'https://api.betradar.com/v1/pre/', active: true, scope: ['prematch'], stateful_recovery_window_in_minutes: 4320 },
      {
        id: 5,
        name: 'PremiumCricket',
        description: 'Premium Cricket',
        api_url: 'https://api.betradar.com/v1/premium_cricket/',
        active: false,
        scope: ['live', 'prematch'],
        stateful_recovery_window_in_minutes: 4320,
      },
    ]);
  });

  it('producersXml parses back', () => {
    const list: UofProducer[] = [
      { id: 1, name: 'LO', description: 'Live Odds & more', api_url: 'https://api.betradar.com/v1/liveodds/', active: true, scope: ['live'], stateful_recovery_window_in_minutes: 600 },
      { id: 3, name: 'Ctrl', description: 'Betradar "Ctrl"', api_url: 'https://api.betradar.com/v1/pre/', active: false, scope: [], stateful_recovery_window_in_minutes: 4320 },
    ];
    expect(parseProducers(producersXml(list))).toEqual(list);
    expect(parseProducers(producersXml([]))).toEqual([]);
  });

  it('fixture.xml as the Sports API answers it', () => {
    const xml = `${DECL}
  <fixtures_fixture xmlns="http://schemas.sportradar.com/sportsapi/v1/unified" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" generated_at="2023-03-21T14:08:00+00:00">
    <fixture start_time_confirmed="true" start_time="2023-03-19T16:30:00+00:00" liveodds="not_available" status="postponed" next_live_time="2023-03-19T16:30:00+00:00" id="sr:match:34152237" scheduled="2023-03-19T16:30:00+00:00" start_time_tbd="false">
      <tournament_round type="group" number="28" group_long_name="Premier League" betradar_id="1" betradar_name="Premier League" phase="regular season"/>
      <season start_date="2022-08-05" end_date="2023-05-28" year="22/23" tournament_id="sr:tournament:17" id="sr:season:93741" name="Premier League 22/23"/>
      <tournament id="sr:tournament:17" name="Premier League">
        <sport id="sr:sport:1" name="Soccer"/>
        <category id="sr:category:1" name="England" country_code="ENG"/>
      </tournament>
      <competitors>
        <competitor qualifier="home" id="sr:competitor:17" name="Manchester City" abbreviation="MCI">
          <reference_ids><reference_id name="betradar" value="4861"/></reference_ids>
        </competitor>
        <competitor qualifier="away" id="sr:competitor:37" name="West Ham United" abbreviation="WHU"/>
      </competitors>
      <venue id="sr:venue:606" name="Etihad Stadium" capacity="53400"/>
      <extra_info><info key="RTS" value="not_available"/></extra_info>
    </fixture>
  </fixtures_fixture>`;
    expect(parseFixture(xml)).toEqual({
      id: 'sr:match:34152237',
      start_time: Date.UTC(2023, 2, 19, 16, 30),
      status: 'postponed',
      sport: { id: 'sr:sport:1', name: 'Soccer' },
      tournament: { id: 'sr:tournament:17', name: 'Premier League' },
      competitors: [
        { id: 'sr:competitor:17', name: 'Manchester City', qualifier: 'home' },
        { id: 'sr:competitor:37', name: 'West Ham United', qualifier: 'away' },
      ],
    });
    // scheduled only (no start_time), another offset.
    expect(parseFixture(xml.replace(/ start_time="[^"]*"/, '').replace('scheduled="2023-03-19T16:30:00+00:00"', 'scheduled="2023-03-19T18:30:00+02:00"')).start_time).toBe(
      Date.UTC(2023, 2, 19, 16, 30),
    );
  });

  it('fixtureXml parses back', () => {
    const f: UofFixture = {
      id: 'sr:match:1001',
      start_time: Date.UTC(2026, 10, 21, 16, 15),
      status: 'not_started',
      sport: { id: 'sr:sport:1', name: 'Soccer' },
      tournament: { id: 'sr:tournament:tz-plq', name: 'Tanzania Premier League' },
      competitors: [
        { id: 'sr:match:1001:home', name: 'Simba & Co <"SC">', qualifier: 'home' },
        { id: 'sr:match:1001:away', name: 'Yanga', qualifier: 'away' },
      ],
    };
    expect(parseFixture(fixtureXml(f))).toEqual(f);
    const odd = { ...f, start_time: f.start_time + 123, competitors: [], status: undefined };
    delete odd.status;
    expect(parseFixture(fixtureXml(odd))).toEqual(odd);
  });

  it('markets.xml as the API answers it (mappings read past)', () => {
    const xml = `${BOM}${DECL}
<market_descriptions response_code="OK">
  <market id="18" name="Total {total}" groups="all|score|regular_play">
    <outcomes>
      <outcome id="13" name="under {total}"/>
      <outcome id="12" name="over {total}"/>
    </outcomes>
    <specifiers>
      <specifier name="total" type="decimal"/>
    </specifiers>
    <mappings>
      <mapping product_id="1" product_ids="1|4" sport_id="sr:sport:1" market_id="8:33" sov_template="{total}" valid_for="total~*.5">
        <mapping_outcome outcome_id="13" product_outcome_id="114" product_outcome_name="under"/>
        <mapping_outcome outcome_id="12" product_outcome_id="115" product_outcome_name="over"/>
      </mapping>
    </mappings>
  </market>
  <market id="1" name="1x2" groups="all|score|regular_play">
    <outcomes>
      <outcome id="1" name="{$competitor1}"/>
      <outcome id="2" name="draw"/>
      <outcome id="3" name="{$competitor2}"/>
    </outcomes>
  </market>
</market_descriptions>`;
    expect(parseMarketDescriptions(xml)).toEqual([
      {
        id: 18,
        name: 'Total {total}',
        groups: ['all', 'score', 'regular_play'],
        outcomes: [
          { id: '13', name: 'under {total}' },
          { id: '12', name: 'over {total}' },
        ],
        specifiers: [{ name: 'total', type: 'decimal' }],
      },
      {
        id: 1,
        name: '1x2',
        groups: ['all', 'score', 'regular_play'],
        outcomes: [
          { id: '1', name: '{$competitor1}' },
          { id: '2', name: 'draw' },
          { id: '3', name: '{$competitor2}' },
        ],
        specifiers: [],
      },
    ]);
  });

  it('MARKET_DESCRIPTIONS parse back and describe every market and outcome the simulator sends', () => {
    expect(parseMarketDescriptions(marketDescriptionsXml(MARKET_DESCRIPTIONS))).toEqual(MARKET_DESCRIPTIONS);
    expect(MARKET_DESCRIPTIONS.map((d) => d.id).sort((a, b) => a - b)).toEqual([FB.oneXtwo, FB.handicap, FB.total, BB.moneyline, BB.handicap, BB.total].sort((a, b) => a - b));
    const described = new Map(MARKET_DESCRIPTIONS.map((d) => [d.id, new Set(d.outcomes.map((o) => o.id))]));
    let checked = 0;
    for (const m of simulatorMessages(11)) {
      if (m.type !== 'odds_change' && m.type !== 'bet_settlement') continue;
      for (const k of m.markets) {
        for (const o of k.outcomes) {
          expect(described.get(k.id), `market ${k.id}`).toBeDefined();
          expect(described.get(k.id)!.has(o.id), `market ${k.id} outcome ${o.id}`).toBe(true);
          checked++;
        }
        // A market with a specifier in its name has it in its description's specifiers.
        const key = k.specifiers?.split('=')[0];
        if (key) expect(MARKET_DESCRIPTIONS.find((d) => d.id === k.id)!.specifiers.map((s) => s.name)).toContain(key);
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('the recovery answer', () => {
    expect(parseResponse(`${DECL}\n<response response_code="ACCEPTED"><action>Request for odds from producer 1 accepted</action></response>`)).toEqual({
      response_code: 'ACCEPTED',
      action: 'Request for odds from producer 1 accepted',
    });
    const r = { response_code: 'FORBIDDEN', action: 'recovery', message: 'Too many requests & <more>' };
    expect(parseResponse(responseXml(r))).toEqual(r);
  });

  it('a malformed API answer throws a readable error', () => {
    expect(() => parseProducers('<html><body>502 Bad Gateway</body></html>')).toThrow(/producers\.xml: expected <producers>, got <html>/);
    expect(() => parseProducers('Bad Gateway')).toThrow(/producers\.xml: not XML/);
    expect(() => parseProducers(`<producers><producer id="1" name="LO" description="Live" api_url="x" active="true"/></producers>`)).toThrow(
      /producers\.xml: invalid producers > producer\[0\] @stateful_recovery_window_in_minutes: required attribute is missing/,
    );
    expect(() => parseProducers(`<producers><producer id="1" name="LO" description="Live" api_url="x" active="yes" stateful_recovery_window_in_minutes="1"/></producers>`)).toThrow(
      /@active: must be true or false/,
    );
    expect(() => parseFixture(`<fixtures_fixture><fixture id="sr:match:1" start_time="soon"><tournament id="t" name="T"><sport id="s" name="S"/></tournament></fixture></fixtures_fixture>`)).toThrow(
      /fixture\.xml: invalid fixtures_fixture > fixture @start_time: must be a date-time/,
    );
    expect(() => parseFixture(`<fixtures_fixture><fixture id="sr:match:1" scheduled="2023-03-19T16:30:00+00:00"/></fixtures_fixture>`)).toThrow(/fixture > tournament/);
    expect(() => parseFixture(`<fixtures_fixture><fixture id="sr:match:1"><tournament id="t" name="T"><sport id="s" name="S"/></tournament></fixture></fixtures_fixture>`)).toThrow(
      /neither start_time nor scheduled/,
    );
    expect(() => parseMarketDescriptions(`<market_descriptions><market id="x" name="1x2" groups="all"/></market_descriptions>`)).toThrow(/market\[0\] @id: must be a non-negative integer/);
    expect(() => parseResponse(`<response><action>x</action></response>`)).toThrow(/@response_code: required attribute is missing/);
  });
});
