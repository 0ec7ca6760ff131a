/**
 * Reading Sportradar's Unified Odds Feed (UOF): the XML of the AMQP messages and of the API documents the
 * client needs, checked against the shapes of the published schemas (UnifiedFeed.xsd,
 * UnifiedFeedDescriptions.xsd, UnifiedFeedResponse.xsd, the Sports API's fixtures_fixture.xsd), and the pure
 * mapping of a parsed message to our engine's message (./messages).
 *
 * How a document is read: fast-xml-parser turns it into a tree (attributes of an element grouped under `$`,
 * all values kept as the strings they were, repeated elements always arrays), then zod schemas written
 * from the XSD check that tree: required attributes present, numbers numeric, enumerations in range. What
 * the XSD allows but we do not use (clock, scores, probabilities, mappings, …) is read past, not refused.
 * Writing the same documents is ./documents.ts.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { z } from 'zod';
import { BETTING_OFFER_STATUS, EVENT_STATUS } from '@dau/domain';
import type { FeedMessageInput } from '../messages';
import type {
  UofFixture,
  UofMarketDescription,
  UofMarketStatus,
  UofMessage,
  UofMessageType,
  UofProducer,
  UofResponse,
} from './types';

// ---------------------------------------------------------------------------------------------------------
// The XML tree
// ---------------------------------------------------------------------------------------------------------

/** Elements that may repeat under their parent: always arrays in the tree, even when there is one. */
const REPEATED = new Set(['market', 'outcome', 'producer', 'competitor', 'specifier', 'mapping', 'mapping_outcome', 'period_score']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributesGroupName: '$',
  attributeNamePrefix: '',
  // Values stay strings: the schemas below decide what is a number (no '1.50' → 1.5 surprises on odds).
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && REPEATED.has(name),
});

type Tree = Record<string, unknown>;

/**
 * The document's root element name and content, or a readable reason why it is not one XML document.
 * A leading byte-order mark is dropped (the SDK's samples carry one); a DOCTYPE is refused (UOF never
 * sends one, and it is where entity tricks live).
 */
function readXml(input: string | Buffer): { ok: true; root: string; node: unknown } | { ok: false; error: string } {
  const text = (typeof input === 'string' ? input : input.toString('utf8')).replace(/^\uFEFF/, '');
  if (!text.trim()) return { ok: false, error: 'not XML: the document is empty' };
  if (/<!DOCTYPE/i.test(text)) return { ok: false, error: 'not accepted: the document has a DOCTYPE' };
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { ok: false, error: `not XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})` };
  const tree = parser.parse(text) as Tree;
  const roots = Object.keys(tree).filter((k) => !k.startsWith('#'));
  if (roots.length !== 1) return { ok: false, error: roots.length ? `not one document: ${roots.length} root elements (${roots.join(', ')})` : 'not XML: no root element' };
  const node = tree[roots[0]!];
  // Two roots of the same name come out as one array.
  if (Array.isArray(node)) return { ok: false, error: `not one document: ${node.length} root elements (<${roots[0]}>)` };
  return { ok: true, root: roots[0]!, node };
}

/** 'odds > market[2] > outcome[0] @odds: odds must be greater than 1' for each of the first few issues. */
function describe(root: string, error: z.ZodError): string {
  const where = (path: PropertyKey[]) => {
    let out = root;
    for (let i = 0; i < path.length; i++) {
      const k = path[i];
      if (k === '$') out += ` @${String(path[++i] ?? '')}`;
      else if (typeof k === 'number') out += `[${k}]`;
      else out += ` > ${String(k)}`;
    }
    return out;
  };
  const issues = error.issues.slice(0, 3).map((i) => `${where(i.path)}: ${i.message}`);
  if (error.issues.length > 3) issues.push(`and ${error.issues.length - 3} more`);
  return issues.join('; ');
}

// ---------------------------------------------------------------------------------------------------------
// Attribute and element schemas (from the XSD's types)
// ---------------------------------------------------------------------------------------------------------

/** An attribute's raw text; a missing required one reads 'required attribute is missing'. */
const text = () => z.string({ error: (i) => (i.input === undefined ? 'required attribute is missing' : 'must be text') });
/** xs:int / xs:long (signed). */
const int = text()
  .regex(/^[+-]?\d{1,15}$/, 'must be an integer')
  .transform(Number);
/** xs:long used for times (epoch ms) and ids: non-negative. */
const long = text()
  .regex(/^\d{1,15}$/, 'must be a non-negative integer')
  .transform(Number);
const positive = long.refine((n) => n > 0, 'must be positive');
/** xs:double / xs:decimal as UOF writes them (no exponent). */
const decimal = text()
  .regex(/^[+-]?(\d+(\.\d*)?|\.\d+)$/, 'must be a decimal number')
  .transform(Number);
/** 0/1 flags (outcome@active, alive@subscribed). */
const flag = z.enum(['0', '1'], { error: (i) => (i.input === undefined ? 'required attribute is missing' : 'must be 0 or 1') }).transform((v) => v === '1');
/** xs:boolean ('true', 'false', '1', '0'). */
const xsBoolean = z
  .enum(['true', 'false', '1', '0'], { error: (i) => (i.input === undefined ? 'required attribute is missing' : 'must be true or false') })
  .transform((v) => v === 'true' || v === '1');
/** A sport event's URN: 'sr:match:12345', 'vs:match:1', 'sr:simple_tournament:9'. */
const urn = text().regex(/^[A-Za-z0-9_-]+:[A-Za-z0-9_]+:[A-Za-z0-9_-]+$/, 'must be a URN like sr:match:12345');
/** Decimal odds, kept as the string UOF sent ('1.85'), greater than 1. */
const odds = text()
  .regex(/^\d+(\.\d+)?$/, 'odds must be a decimal number')
  .refine((s) => Number(s) > 1, 'odds must be greater than 1');
/** marketStatus: 1 active, 0 inactive, -1 suspended, -2 handed over, -3 settled, -4 cancelled. */
const marketStatus = z
  .enum(['1', '0', '-1', '-2', '-3', '-4'], { error: 'market status must be one of 1, 0, -1, -2, -3, -4' })
  .transform((v) => Number(v) as UofMarketStatus);
/** eventStatusStatus 0..9. */
const eventStatus = z.enum(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'], { error: (i) => (i.input === undefined ? 'required attribute is missing' : 'event status must be 0..9') }).transform(Number);
/** bet_settlement outcome@result: 0 lost, 1 won, -1 undecided yet. */
const result = z.enum(['0', '1', '-1'], { error: (i) => (i.input === undefined ? 'required attribute is missing' : 'result must be 0, 1 or -1') }).transform(Number);
/** voidFactor: the XSD enumerates 0.5 (half refunded) and 1 (refunded); 0 (none, as when absent) is read too. */
const voidFactor = decimal.refine((n) => n === 0 || n === 0.5 || n === 1, 'void_factor must be 0, 0.5 or 1');
/** dead_heat_factor: the share of the stake that wins, in (0, 1]. */
const deadHeat = decimal.refine((n) => n > 0 && n <= 1, 'dead_heat_factor must be in (0, 1]');

/**
 * An element with no attributes and no children comes out of the parser as '' (or its text): make it {}.
 * An element the XSD allows once but sent twice comes out as an array: left as it is, the schema refuses it.
 */
const asNode = (v: unknown): unknown => {
  if (Array.isArray(v)) return v;
  const o = v !== null && typeof v === 'object' ? (v as Tree) : {};
  return { ...o, $: o.$ ?? {} };
};
/** An element: its attributes (under `$`) and the child elements we read. */
const el = <A extends z.ZodRawShape, C extends z.ZodRawShape = Record<never, never>>(attrs: A, children?: C) =>
  z.preprocess(asNode, z.object({ $: z.object(attrs) }).extend((children ?? {}) as C));
/** A repeated child element; absent reads as none. */
const many = <T extends z.ZodType>(item: T) => z.array(item).optional().transform((v) => v ?? []);
/** A repeated child element the XSD requires (minOccurs 1). */
const atLeastOne = <T extends z.ZodType>(item: T, what: string) =>
  z.array(item, { error: (i) => (i.input === undefined ? what : 'must be a list of elements') }).min(1, what);

/** messageAttributes (product, event_id, timestamp, request_id) without event_id: alive, snapshot_complete. */
const baseAttrs = { product: positive, timestamp: long, request_id: long.optional() };
const eventAttrs = { ...baseAttrs, event_id: urn };
const marketAttrs = { id: positive, specifiers: z.string().optional() };

const base = (a: { product: number; timestamp: number; request_id?: number }) => ({
  product: a.product,
  timestamp: a.timestamp,
  ...(a.request_id !== undefined && { request_id: a.request_id }),
});
const eventBase = (a: { product: number; timestamp: number; request_id?: number; event_id: string }) => ({ ...base(a), event_id: a.event_id });
const ref = (a: { id: number; specifiers?: string }) => ({ id: a.id, specifiers: a.specifiers ?? '' });
/** Set only when present: the parsed message carries no `key: undefined`. */
const opt = <K extends string, V>(key: K, v: V | undefined) => (v === undefined ? {} : ({ [key]: v } as { [P in K]: V }));

/** The `market` of bet_cancel and the rollbacks (type `market` of the XSD). */
const plainMarket = el({ ...marketAttrs, void_reason: int.optional() });

const MESSAGES = {
  odds_change: el(
    { ...eventAttrs, odds_change_reason: int.optional() },
    {
      sport_event_status: el({ status: eventStatus, match_status: int }).optional(),
      odds: el(
        { betting_status: int.optional(), betstop_reason: int.optional() },
        {
          market: many(
            el(
              // status absent: read as 0 (inactive), as both official SDKs default it.
              { ...marketAttrs, status: marketStatus.optional() },
              { outcome: many(el({ id: text().min(1), odds: odds.optional(), active: flag.optional() })) },
            ),
          ),
        },
      ).optional(),
    },
  ).transform(
    ({ $, sport_event_status, odds: o }): UofMessage => ({
      type: 'odds_change',
      ...eventBase($),
      ...opt('event_status', sport_event_status?.$.status),
      ...opt('betting_status', o?.$.betting_status),
      ...opt('betstop_reason', o?.$.betstop_reason),
      markets: (o?.market ?? []).map((m) => ({
        ...ref(m.$),
        status: m.$.status ?? 0,
        outcomes: m.outcome.map((x) => ({ id: x.$.id, ...opt('odds', x.$.odds), ...opt('active', x.$.active) })),
      })),
    }),
  ),
  bet_stop: el({ ...eventAttrs, groups: text().min(1, 'groups must not be empty'), market_status: marketStatus.optional() }).transform(
    ({ $ }): UofMessage => ({ type: 'bet_stop', ...eventBase($), groups: $.groups.split('|'), ...opt('market_status', $.market_status) }),
  ),
  bet_settlement: el(
    // certainty is required by the XSD, but the SDK's own sample leaves it out: read it when present.
    { ...eventAttrs, certainty: z.enum(['1', '2'], { error: 'certainty must be 1 or 2' }).transform(Number).optional() },
    {
      outcomes: el(
        {},
        {
          market: atLeastOne(
            el(
              { ...marketAttrs, void_reason: int.optional() },
              {
                outcome: atLeastOne(
                  el({ id: text().min(1), result, void_factor: voidFactor.optional(), dead_heat_factor: deadHeat.optional() }),
                  'a settled market lists at least one outcome',
                ),
              },
            ),
            'a settlement lists at least one market',
          ),
        },
      ),
    },
  ).transform(
    ({ $, outcomes }): UofMessage => ({
      type: 'bet_settlement',
      ...eventBase($),
      ...opt('certainty', $.certainty),
      // result -1 (undecided yet) settles nothing: such outcomes, and markets left without any, are left out.
      markets: outcomes.market
        .map((m) => ({
          ...ref(m.$),
          ...opt('void_reason', m.$.void_reason),
          outcomes: m.outcome
            .filter((x) => x.$.result !== -1)
            .map((x) => ({
              id: x.$.id,
              result: x.$.result as 0 | 1,
              ...opt('void_factor', x.$.void_factor),
              ...opt('dead_heat_factor', x.$.dead_heat_factor),
            })),
        }))
        .filter((m) => m.outcomes.length > 0),
    }),
  ),
  rollback_bet_settlement: el(eventAttrs, { market: atLeastOne(plainMarket, 'at least one market') }).transform(
    ({ $, market }): UofMessage => ({ type: 'rollback_bet_settlement', ...eventBase($), markets: market.map((m) => ref(m.$)) }),
  ),
  bet_cancel: el(
    { ...eventAttrs, start_time: long.optional(), end_time: long.optional(), superceded_by: z.string().optional() },
    { market: atLeastOne(plainMarket, 'at least one market') },
  ).transform(
    ({ $, market }): UofMessage => ({
      type: 'bet_cancel',
      ...eventBase($),
      ...opt('start_time', $.start_time),
      ...opt('end_time', $.end_time),
      ...opt('superceded_by', $.superceded_by),
      markets: market.map((m) => ({ ...ref(m.$), ...opt('void_reason', m.$.void_reason) })),
    }),
  ),
  rollback_bet_cancel: el(
    { ...eventAttrs, start_time: long.optional(), end_time: long.optional() },
    { market: atLeastOne(plainMarket, 'at least one market') },
  ).transform(
    ({ $, market }): UofMessage => ({
      type: 'rollback_bet_cancel',
      ...eventBase($),
      ...opt('start_time', $.start_time),
      ...opt('end_time', $.end_time),
      markets: market.map((m) => ref(m.$)),
    }),
  ),
  fixture_change: el({ ...eventAttrs, change_type: int.optional(), start_time: long, next_live_time: long.optional() }).transform(
    ({ $ }): UofMessage => ({
      type: 'fixture_change',
      ...eventBase($),
      ...opt('change_type', $.change_type),
      start_time: $.start_time,
      ...opt('next_live_time', $.next_live_time),
    }),
  ),
  alive: el({ ...baseAttrs, subscribed: flag }).transform(({ $ }): UofMessage => ({ type: 'alive', ...base($), subscribed: $.subscribed })),
  snapshot_complete: el({ product: positive, timestamp: long, request_id: long }).transform(
    ({ $ }): UofMessage => ({ type: 'snapshot_complete', ...base($), request_id: $.request_id }),
  ),
} satisfies Record<UofMessageType, z.ZodType<UofMessage>>;

/** The root element names parseUofMessage reads. */
export const UOF_MESSAGE_TYPES = Object.keys(MESSAGES) as UofMessageType[];

// ---------------------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------------------

export type UofParseResult = { ok: true; message: UofMessage } | { ok: false; error: string; unknownType?: boolean };

/**
 * Reads one AMQP message body. The root element names the message (odds_change, bet_stop, bet_settlement,
 * rollback_bet_settlement, bet_cancel, rollback_bet_cancel, fixture_change, alive, snapshot_complete);
 * its attributes and children are checked against UnifiedFeed.xsd. Never throws: a body that is not XML,
 * or misses a required attribute, or carries a value out of its range, gives `ok: false` with the reason;
 * a well-formed message of a type we do not read (product_down, cashout, …) also sets `unknownType`.
 */
export function parseUofMessage(xml: string | Buffer): UofParseResult {
  try {
    const doc = readXml(xml);
    if (!doc.ok) return doc;
    const schema = Object.hasOwn(MESSAGES, doc.root) ? (MESSAGES as Record<string, z.ZodType<UofMessage>>)[doc.root] : undefined;
    if (!schema) return { ok: false, error: `unknown UOF message <${doc.root}>`, unknownType: true };
    const parsed = schema.safeParse(doc.node);
    return parsed.success ? { ok: true, message: parsed.data } : { ok: false, error: `invalid ${describe(doc.root, parsed.error)}` };
  } catch (e) {
    return { ok: false, error: `unreadable: ${e instanceof Error ? e.message : String(e)}` };
  }
}

// ---------------------------------------------------------------------------------------------------------
// API documents (the caller catches: a malformed answer throws)
// ---------------------------------------------------------------------------------------------------------

/** Reads an API document whose root must be `root`, checked by `schema`; throws a readable Error otherwise. */
function readDocument<T>(xml: string | Buffer, root: string, schema: z.ZodType<T>, what: string): T {
  const doc = readXml(xml);
  if (!doc.ok) throw new Error(`${what}: ${doc.error}`);
  if (doc.root !== root) throw new Error(`${what}: expected <${root}>, got <${doc.root}>`);
  const parsed = schema.safeParse(doc.node);
  if (!parsed.success) throw new Error(`${what}: invalid ${describe(root, parsed.error)}`);
  return parsed.data;
}

const producersSchema = el(
  {},
  {
    producer: many(
      el({
        id: positive,
        name: text(),
        description: text(),
        api_url: text().min(1, 'api_url must not be empty'),
        active: xsBoolean,
        scope: z.string().optional(),
        stateful_recovery_window_in_minutes: int,
      }),
    ),
  },
);

/**
 * Reads `/v1/descriptions/producers.xml` (UnifiedFeedDescriptions.xsd `producers`): every producer with
 * its scope ('live|prematch' → ['live', 'prematch']), its stateful recovery window and its api_url as sent
 * (whose last path segment is the `{product}` of the recovery URLs). Throws on a malformed document.
 */
export function parseProducers(xml: string | Buffer): UofProducer[] {
  return readDocument(xml, 'producers', producersSchema, 'producers.xml').producer.map(({ $ }) => ({
    id: $.id,
    name: $.name,
    description: $.description,
    api_url: $.api_url,
    active: $.active,
    scope: $.scope ? $.scope.split('|').filter(Boolean) : [],
    stateful_recovery_window_in_minutes: $.stateful_recovery_window_in_minutes,
  }));
}

/** xs:dateTime ('2023-03-19T16:30:00+00:00') → epoch ms. */
const dateTime = text().transform((s, ctx) => {
  const ms = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s) ? Date.parse(s) : NaN;
  if (Number.isNaN(ms)) ctx.addIssue({ code: 'custom', message: 'must be a date-time like 2023-03-19T16:30:00+00:00' });
  return ms;
});
const named = el({ id: text().min(1), name: text() });

const fixtureSchema = el(
  {},
  {
    fixture: el(
      { id: urn, start_time: dateTime.optional(), scheduled: dateTime.optional(), status: z.string().optional() },
      {
        tournament: el({ id: text().min(1), name: text() }, { sport: named }),
        competitors: el({}, { competitor: many(el({ id: text().min(1), name: text(), qualifier: z.string().optional() })) }).optional(),
      },
    ).refine((f) => f.$.start_time !== undefined || f.$.scheduled !== undefined, 'the fixture has neither start_time nor scheduled'),
  },
);

/**
 * Reads `/v1/sports/{lang}/sport_events/{urn}/fixture.xml` (fixtures_fixture.xsd: `fixtures_fixture >
 * fixture`): the event's id, start (fixture@start_time, else @scheduled), status, sport and tournament
 * (tournament > sport), and competitors with their qualifier (home / away). Throws on a malformed document.
 */
export function parseFixture(xml: string | Buffer): UofFixture {
  const { fixture: f } = readDocument(xml, 'fixtures_fixture', fixtureSchema, 'fixture.xml');
  return {
    id: f.$.id,
    start_time: (f.$.start_time ?? f.$.scheduled)!,
    ...opt('status', f.$.status),
    sport: { id: f.tournament.sport.$.id, name: f.tournament.sport.$.name },
    tournament: { id: f.tournament.$.id, name: f.tournament.$.name },
    competitors: (f.competitors?.competitor ?? []).map((c) => ({ id: c.$.id, name: c.$.name, qualifier: c.$.qualifier ?? '' })),
  };
}

const marketsSchema = el(
  {},
  {
    market: many(
      el(
        { id: positive, name: text(), groups: text() },
        {
          outcomes: el({}, { outcome: many(el({ id: text().min(1), name: text() })) }).optional(),
          specifiers: el({}, { specifier: many(el({ name: text().min(1), type: text() })) }).optional(),
        },
      ),
    ),
  },
);

/**
 * Reads `/v1/descriptions/{lang}/markets.xml` (UnifiedFeedDescriptions.xsd `market_descriptions`): each
 * market's id, name template, groups ('all|score|regular_play' → ['all', 'score', 'regular_play']),
 * outcome names by id and specifiers. Mappings and attributes are read past. Throws on a malformed document.
 */
export function parseMarketDescriptions(xml: string | Buffer): UofMarketDescription[] {
  return readDocument(xml, 'market_descriptions', marketsSchema, 'markets.xml').market.map((m) => ({
    id: m.$.id,
    name: m.$.name,
    groups: m.$.groups.split('|').filter(Boolean),
    outcomes: (m.outcomes?.outcome ?? []).map((o) => ({ id: o.$.id, name: o.$.name })),
    specifiers: (m.specifiers?.specifier ?? []).map((s) => ({ name: s.$.name, type: s.$.type })),
  }));
}

/** `<action>` / `<message>`: the element's text (with or without attributes). */
const elementText = z
  .unknown()
  .transform((v) => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as Tree)['#text'] === 'string' ? ((v as Tree)['#text'] as string) : ''))
  .optional();
const responseSchema = z.preprocess(asNode, z.object({ $: z.object({ response_code: text().min(1) }), action: elementText, message: elementText }));

/**
 * Reads the API's `<response response_code="…">` (UnifiedFeedResponse.xsd), the answer to a recovery
 * request: ACCEPTED when the producer will replay, FORBIDDEN / NOT_FOUND / … otherwise. Throws on a
 * malformed document.
 */
export function parseResponse(xml: string | Buffer): UofResponse {
  const r = readDocument(xml, 'response', responseSchema, 'response');
  return { response_code: r.$.response_code, ...opt('action', r.action), ...opt('message', r.message) };
}

// ---------------------------------------------------------------------------------------------------------
// UOF → our engine's messages
// ---------------------------------------------------------------------------------------------------------

/**
 * sport_event_status@status → EVENT_STATUS: 0 not started, 1 live, 2 suspended → interrupted, 3 ended,
 * 4 closed (results confirmed) → ended, 5 cancelled, 6 delayed → not started, 7 interrupted, 8 postponed →
 * not started, 9 abandoned. An odds_change without sport_event_status reads as not started.
 */
export const UOF_EVENT_STATUS: Readonly<Record<number, number>> = {
  0: EVENT_STATUS.not_started,
  1: EVENT_STATUS.in_progress,
  2: EVENT_STATUS.interrupted,
  3: EVENT_STATUS.ended,
  4: EVENT_STATUS.ended,
  5: EVENT_STATUS.cancelled,
  6: EVENT_STATUS.not_started,
  7: EVENT_STATUS.interrupted,
  8: EVENT_STATUS.not_started,
  9: EVENT_STATUS.abandoned,
};
/** The event status when UOF sends none. */
export const DEFAULT_EVENT_STATUS = EVENT_STATUS.not_started;

/**
 * market@status → BETTING_OFFER_STATUS: 1 active → bettable, 0 inactive → removed from feed, -1 suspended →
 * temporarily removed, -3 settled → resolved, -4 cancelled → invalid. -2 (handed over) is null: the market
 * is left out of the engine's message, the other producer (live ↔ pre-match) takes it over.
 */
export const UOF_MARKET_STATUS: Readonly<Record<UofMarketStatus, number | null>> = {
  1: BETTING_OFFER_STATUS.bettable,
  0: BETTING_OFFER_STATUS.removed_from_feed,
  '-1': BETTING_OFFER_STATUS.temporarily_removed,
  '-2': null,
  '-3': BETTING_OFFER_STATUS.resolved,
  '-4': BETTING_OFFER_STATUS.invalid,
};

/** UOF odds with more than the engine's 4 decimals are rounded to 4 (UOF sends 2 in practice). */
const price = (o: string) => (/\.\d{5,}$/.test(o) ? Number(o).toFixed(4) : o);

/**
 * Our engine's message for a UOF message, a pure mapping (`producer` = product):
 *  - odds_change: event status and market statuses through UOF_EVENT_STATUS / UOF_MARKET_STATUS (handed-over
 *    markets left out); an outcome without odds has no price; `active` defaults to true. odds@betting_status
 *    and @betstop_reason are not carried (the markets' own statuses say what is open);
 *  - bet_settlement: result, void_factor (0, 0.5 or 1, as the parser allows) and dead_heat_factor as sent;
 *    certainty and void_reason are not carried; null when no market is left to settle (all undecided);
 *  - bet_cancel / rollback_bet_cancel: the window and the markets (superceded_by and void_reason not carried);
 *  - rollback_bet_settlement, alive: as sent.
 * fixture_change, bet_stop and snapshot_complete give null: the client maps them with API look-ups (the
 * fixture, the markets of the bet-stop groups, the recovery it requested). request_id is not carried.
 */
export function toFeedMessage(u: UofMessage): FeedMessageInput | null {
  const head = { producer: u.product, timestamp: u.timestamp };
  switch (u.type) {
    case 'odds_change':
      return {
        type: 'odds_change',
        ...head,
        event_id: u.event_id,
        event_status: u.event_status === undefined ? DEFAULT_EVENT_STATUS : (UOF_EVENT_STATUS[u.event_status] ?? DEFAULT_EVENT_STATUS),
        markets: u.markets.flatMap((m) => {
          const status = UOF_MARKET_STATUS[m.status];
          if (status === null || status === undefined) return [];
          return [
            {
              id: m.id,
              specifiers: m.specifiers,
              status,
              outcomes: m.outcomes.map((o) => ({ id: o.id, ...(o.odds !== undefined && { price: price(o.odds) }), active: o.active ?? true })),
            },
          ];
        }),
      };
    case 'bet_settlement':
      if (!u.markets.length) return null;
      return {
        type: 'bet_settlement',
        ...head,
        event_id: u.event_id,
        markets: u.markets.map((m) => ({
          id: m.id,
          specifiers: m.specifiers,
          outcomes: m.outcomes.map((o) => ({
            id: o.id,
            result: o.result,
            ...(o.void_factor !== undefined && { void_factor: o.void_factor as 0 | 0.5 | 1 }),
            ...(o.dead_heat_factor !== undefined && { dead_heat_factor: o.dead_heat_factor }),
          })),
        })),
      };
    case 'rollback_bet_settlement':
      return { type: 'rollback_bet_settlement', ...head, event_id: u.event_id, markets: u.markets.map(({ id, specifiers }) => ({ id, specifiers })) };
    case 'bet_cancel':
    case 'rollback_bet_cancel':
      // The same shape both ways: the window and the markets (void_reason and superceded_by are not carried).
      return {
        type: u.type,
        ...head,
        event_id: u.event_id,
        ...opt('start_time', u.start_time),
        ...opt('end_time', u.end_time),
        markets: u.markets.map(({ id, specifiers }) => ({ id, specifiers })),
      } as FeedMessageInput;
    case 'alive':
      return { type: 'alive', ...head, subscribed: u.subscribed };
    case 'fixture_change':
    case 'bet_stop':
    case 'snapshot_complete':
      return null;
  }
}
