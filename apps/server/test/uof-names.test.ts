/**
 * Market and outcome names from the feed's market descriptions (src/modules/feed/uof/descriptions.ts) and
 * the names the odds views and bet placement use (src/modules/feed/names.ts): UOF's name templates of every
 * kind, the sandbox's descriptions (documents.ts MARKET_DESCRIPTIONS) rendered, the fallbacks when no
 * description knows a market, odd input never throwing, and the UOF client handing what it loads to the
 * registry. No database.
 *
 * The registry is process-wide and this project's files share their worker's modules: every case starts and
 * the file ends with it empty.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { marketName, selectionName } from '../src/modules/feed/names.js';
import { MARKET_DESCRIPTIONS } from '../src/modules/feed/uof/documents.js';
import {
  clearMarketDescriptions,
  describedMarketName,
  describedOutcomeName,
  parseSpecifiers,
  renderNameTemplate,
  setMarketDescriptions,
} from '../src/modules/feed/uof/descriptions.js';
import { UofClient } from '../src/modules/feed/uof/client.js';
import type { UofMarketDescription } from '../src/modules/feed/uof/types.js';

const teams = { home: 'Arsenal', away: 'Chelsea' };
const render = (template: string, specifiers = '', lang?: string) => renderNameTemplate(template, specifiers, teams, lang);

beforeEach(() => clearMarketDescriptions());
afterAll(() => clearMarketDescriptions());

describe('specifiers', () => {
  it('reads the pipe-separated key=value string', () => {
    expect(parseSpecifiers('total=2.5')).toEqual({ total: '2.5' });
    expect(parseSpecifiers('hcp=0:1|variant=sr:exact_goals:6')).toEqual({ hcp: '0:1', variant: 'sr:exact_goals:6' });
    expect(parseSpecifiers('')).toEqual({});
    expect(parseSpecifiers('junk|=1|a=|b=x=y')).toEqual({ a: '', b: 'x=y' });
    expect(parseSpecifiers(undefined)).toEqual({});
    expect(parseSpecifiers(null)).toEqual({});
  });
});

describe('name templates', () => {
  it('{specifier}: the value as sent', () => {
    expect(render('Total {total}', 'total=2.5')).toBe('Total 2.5');
    expect(render('over {total}', 'total=2.50')).toBe('over 2.50');
    expect(render('Handicap {hcp}', 'hcp=0:1')).toBe('Handicap 0:1');
    expect(render('{goalnr} goal', 'goalnr=3')).toBe('3 goal');
  });

  it('{+specifier} / {-specifier}: signed and negated signed, 0 unsigned', () => {
    expect(render('{+hcp}', 'hcp=-0.25')).toBe('-0.25');
    expect(render('{-hcp}', 'hcp=-0.25')).toBe('+0.25');
    expect(render('{+hcp}', 'hcp=1.5')).toBe('+1.5');
    expect(render('{-hcp}', 'hcp=1.5')).toBe('-1.5');
    expect(render('{+hcp}', 'hcp=+1')).toBe('+1');
    expect(render('{+hcp} / {-hcp}', 'hcp=0')).toBe('0 / 0');
    expect(render('{+hcp} / {-hcp}', 'hcp=0.0')).toBe('0 / 0');
    // A value that is no number (a European handicap) is written as it came.
    expect(render('{+hcp} / {-hcp}', 'hcp=0:1')).toBe('0:1 / 0:1');
  });

  it('{!specifier}: an ordinal', () => {
    const cases: Array<[number, string]> = [
      [1, '1st'], [2, '2nd'], [3, '3rd'], [4, '4th'], [10, '10th'], [11, '11th'], [12, '12th'], [13, '13th'],
      [21, '21st'], [22, '22nd'], [23, '23rd'], [101, '101st'], [111, '111th'], [112, '112th'], [0, '0th'],
    ];
    for (const [n, text] of cases) expect(render('{!periodnr} half', `periodnr=${n}`)).toBe(`${text} half`);
    // Not an integer: the value as sent.
    expect(render('{!periodnr} half', 'periodnr=1.5')).toBe('1.5 half');
    expect(render('{!periodnr} half', 'periodnr=x')).toBe('x half');
    // Other languages: the number and a dot.
    expect(render('{!periodnr}', 'periodnr=2', 'sw')).toBe('2.');
    expect(render('{!periodnr}', 'periodnr=2', 'en-GB')).toBe('2nd');
  });

  it('(specifier±n) operands', () => {
    expect(render('{!(inningnr+1)} inning', 'inningnr=2')).toBe('3rd inning');
    expect(render('{(periodnr-1)}', 'periodnr=3')).toBe('2');
    expect(render('{+(hcp+1)}', 'hcp=-0.5')).toBe('+0.5');
    expect(render('{-(total-0.5)}', 'total=2.5')).toBe('-2');
    expect(render('{(total+0.1)}', 'total=0.2')).toBe('0.3');
    expect(render('{!(inningnr+1)} inning', 'inningnr=x')).toBe('x inning');
  });

  it('{$competitor1} / {$competitor2} / {$event}: the teams', () => {
    expect(render('{$competitor1} ({+hcp})', 'hcp=-0.25')).toBe('Arsenal (-0.25)');
    expect(render('{$competitor2} ({-hcp})', 'hcp=-0.25')).toBe('Chelsea (+0.25)');
    expect(render('{$competitor1} total {total}', 'total=1.5')).toBe('Arsenal total 1.5');
    expect(render('{$event} - total', '')).toBe('Arsenal vs Chelsea - total');
    // Without names: Home / Away.
    expect(renderNameTemplate('{$competitor1} or {$competitor2}', '', { home: '', away: '' })).toBe('Home or Away');
  });

  it('{%player}: the URN stands for the profile name we do not fetch', () => {
    expect(render('{%player} to score', 'player=sr:player:123')).toBe('sr:player:123 to score');
    expect(render('{%player} to score', '')).toBe('to score');
  });

  it('leaves out the expressions of specifiers the market does not carry (a type name without its line)', () => {
    expect(render('Total {total}')).toBe('Total');
    expect(render('Handicap {hcp} (incl. overtime)')).toBe('Handicap (incl. overtime)');
    expect(render('{$competitor1} ({+hcp})')).toBe('Arsenal');
    expect(render('over {total}')).toBe('over');
    expect(render('{!periodnr} half - {$competitor1} total {total}', 'total=1.5')).toBe('half - Arsenal total 1.5');
    expect(render('Total {total}', 'hcp=1')).toBe('Total');
  });

  it('keeps what it does not understand readable and never throws', () => {
    expect(render('Odd {^x}')).toBe('Odd ^x');
    expect(render('Odd {foo bar}')).toBe('Odd foo bar');
    expect(render('Odd {$competitor3}')).toBe('Odd competitor3');
    expect(render('Odd {(a*2)}', 'a=1')).toBe('Odd (a*2)');
    expect(render('Odd {}')).toBe('Odd');
    expect(render('Odd {+}')).toBe('Odd +');
    expect(render('Unclosed {total', 'total=2.5')).toBe('Unclosed {total');
    expect(render('Stray } and {total}', 'total=2.5')).toBe('Stray } and 2.5');
    expect(render('{{total}}', 'total=2.5')).toBe('{2.5}');
    expect(render('')).toBe('');
    expect(renderNameTemplate(undefined as unknown as string, 'total=1', teams)).toBe('');
    expect(renderNameTemplate('Total {total}', { total: '3.5' }, teams)).toBe('Total 3.5');
    expect(renderNameTemplate('{$competitor1}', null, null as unknown as typeof teams)).toBe('Home');
    expect(renderNameTemplate('x {!n}', 'n=1', teams, 'not a language tag!!')).toBe('x 1.');
  });

  it('upper-cases the first letter only when it is the template\'s own text', () => {
    const up = { ...teams, upperFirst: true };
    expect(renderNameTemplate('over {total}', 'total=2.5', up)).toBe('Over 2.5');
    expect(renderNameTemplate('draw', '', up)).toBe('Draw');
    expect(renderNameTemplate('{$competitor1} ({+hcp})', 'hcp=1', { home: 'sc Freiburg', away: 'x', upperFirst: true })).toBe('sc Freiburg (+1)');
    expect(renderNameTemplate('{%player} to score', 'player=sr:player:1', up)).toBe('sr:player:1 to score');
    expect(renderNameTemplate('{!periodnr} half', '', up)).toBe('Half');
    expect(renderNameTemplate('draw', '', teams)).toBe('draw');
  });

  it('never throws on any template, specifiers or teams', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('{', '}', '(', ')', '+', '-', '!', '$', '%', '^', 'a', 'total', 'hcp', '1', '.', ' ', '|', '=', 'competitor1', 'event') }),
        fc.string({ unit: fc.constantFrom('total', 'hcp', '=', '|', '-', '0.25', '1', ':', 'x', ' ') }),
        fc.string(),
        fc.option(fc.string(), { nil: undefined }),
        (template, specifiers, home, lang) => {
          const out = renderNameTemplate(template, specifiers, { home, away: 'B', upperFirst: true }, lang);
          expect(typeof out).toBe('string');
        },
      ),
    );
  });
});

describe('the sandbox market descriptions', () => {
  beforeEach(() => setMarketDescriptions('en', MARKET_DESCRIPTIONS));

  it('renders the market names with their lines', () => {
    expect(describedMarketName(1, '', teams)).toBe('1x2');
    expect(describedMarketName(18, 'total=2.5', teams)).toBe('Total 2.5');
    expect(describedMarketName(16, 'hcp=-0.25', teams)).toBe('Handicap -0.25');
    expect(describedMarketName(219, '', teams)).toBe('Winner (incl. overtime)');
    expect(describedMarketName(223, 'hcp=4.5', teams)).toBe('Handicap 4.5 (incl. overtime)');
    expect(describedMarketName(225, 'total=180.5', teams)).toBe('Total 180.5 (incl. overtime)');
  });

  it('renders the outcome names: teams, totals and signed handicaps', () => {
    expect(describedOutcomeName(1, '1', '', teams)).toBe('Arsenal');
    expect(describedOutcomeName(1, '2', '', teams)).toBe('draw');
    expect(describedOutcomeName(1, '3', '', teams)).toBe('Chelsea');
    expect(describedOutcomeName(18, '12', 'total=2.5', teams)).toBe('over 2.5');
    expect(describedOutcomeName(18, '13', 'total=2.5', teams)).toBe('under 2.5');
    expect(describedOutcomeName(16, '1714', 'hcp=-0.25', teams)).toBe('Arsenal (-0.25)');
    expect(describedOutcomeName(16, '1715', 'hcp=-0.25', teams)).toBe('Chelsea (+0.25)');
    expect(describedOutcomeName(16, '1714', 'hcp=0', teams)).toBe('Arsenal (0)');
    expect(describedOutcomeName(219, '4', '', teams)).toBe('Arsenal');
    expect(describedOutcomeName(219, '5', '', teams)).toBe('Chelsea');
    expect(describedOutcomeName(223, '1714', 'hcp=4.5', teams)).toBe('Arsenal (+4.5)');
    expect(describedOutcomeName(223, '1715', 'hcp=4.5', teams)).toBe('Chelsea (-4.5)');
    expect(describedOutcomeName(225, '12', 'total=180.5', teams)).toBe('over 180.5');
  });

  it('leaves no braces in any of its names', () => {
    const specs: Record<string, string> = { decimal: '1.5', integer: '2', string: 'x' };
    for (const d of MARKET_DESCRIPTIONS) {
      const specifiers = d.specifiers.map((s) => `${s.name}=${specs[s.type] ?? '1'}`).join('|');
      const names = [describedMarketName(d.id, specifiers, teams), ...d.outcomes.map((o) => describedOutcomeName(d.id, o.id, specifiers, teams))];
      for (const n of names) expect(n).toMatch(/^[^{}]+$/);
    }
  });

  it('knows nothing of markets and outcomes it does not describe', () => {
    expect(describedMarketName(999, '', teams)).toBeNull();
    expect(describedOutcomeName(999, '1', '', teams)).toBeNull();
    expect(describedOutcomeName(18, '1714', 'total=2.5', teams)).toBeNull();
    expect(describedOutcomeName(18, 'sr:exact_goals:6:1', 'variant=sr:exact_goals:6', teams)).toBeNull();
    expect(describedOutcomeName(Number.NaN, '1', '', teams)).toBeNull();
    expect(describedOutcomeName(1, undefined as unknown as string, undefined, teams)).toBeNull();
    expect(describedMarketName(18, undefined, null as unknown as typeof teams)).toBe('Total');
  });
});

describe('languages', () => {
  const sw: UofMarketDescription[] = [{ id: 18, name: 'Jumla {total}', groups: ['all'], outcomes: [{ id: '12', name: 'juu ya {total}' }], specifiers: [{ name: 'total', type: 'decimal' }] }];

  it('keeps descriptions per language, English the default and the fallback', () => {
    setMarketDescriptions('en', MARKET_DESCRIPTIONS);
    setMarketDescriptions('sw', sw);
    expect(describedMarketName(18, 'total=2.5', teams)).toBe('Total 2.5');
    expect(describedMarketName(18, 'total=2.5', teams, 'sw')).toBe('Jumla 2.5');
    expect(describedMarketName(18, 'total=2.5', teams, 'SW')).toBe('Jumla 2.5');
    expect(describedOutcomeName(18, '12', 'total=2.5', teams, 'sw')).toBe('juu ya 2.5');
    // Not described in Swahili: the English description's name.
    expect(describedMarketName(1, '', teams, 'sw')).toBe('1x2');
    expect(describedOutcomeName(18, '13', 'total=2.5', teams, 'sw')).toBeNull();
    expect(describedMarketName(18, 'total=2.5', teams, 'zh')).toBe('Total 2.5');
  });

  it('a language\'s new list replaces its old one; an empty list forgets it; odd entries are skipped', () => {
    setMarketDescriptions('sw', sw);
    setMarketDescriptions('sw', []);
    expect(describedMarketName(18, 'total=2.5', teams, 'sw')).toBeNull();
    setMarketDescriptions('en', [
      null as unknown as UofMarketDescription,
      { id: 'x' } as unknown as UofMarketDescription,
      { id: 7, name: 'Seven', groups: [], outcomes: undefined, specifiers: [] } as unknown as UofMarketDescription,
      ...MARKET_DESCRIPTIONS,
    ]);
    expect(describedMarketName(7, '', teams)).toBe('Seven');
    expect(describedOutcomeName(7, '1', '', teams)).toBeNull();
    expect(describedMarketName(18, 'total=2.5', teams)).toBe('Total 2.5');
    clearMarketDescriptions('en');
    expect(describedMarketName(18, 'total=2.5', teams)).toBeNull();
    expect(() => setMarketDescriptions('en', undefined as unknown as UofMarketDescription[])).not.toThrow();
  });
});

describe('names (feed/names.ts)', () => {
  const m = (specifiers: string, typeId?: number) => ({ ...teams, specifiers, typeId });

  /** Today's names: what the odds views and placement show without descriptions. */
  const fallbacks = () => {
    expect(marketName(1)).toBe('1X2');
    expect(marketName(18)).toBe('Total');
    expect(marketName(223)).toBe('Handicap (incl. overtime)');
    expect(marketName(999)).toBe('Market 999');
    expect(marketName(18, 'Over/Under')).toBe('Over/Under');
    expect(marketName(18, null)).toBe('Total');
    expect(selectionName('1', m(''))).toBe('Arsenal');
    expect(selectionName('2', m(''))).toBe('Draw');
    expect(selectionName('3', m(''))).toBe('Chelsea');
    expect(selectionName('4', m(''))).toBe('Arsenal');
    expect(selectionName('5', m(''))).toBe('Chelsea');
    expect(selectionName('12', m('total=2.5'))).toBe('Over 2.5');
    expect(selectionName('13', m('total=2.5'))).toBe('Under 2.5');
    expect(selectionName('12', m(''))).toBe('Over');
    expect(selectionName('1714', m('hcp=-0.25'))).toBe('Arsenal (-0.25)');
    expect(selectionName('1715', m('hcp=-0.25'))).toBe('Chelsea (+0.25)');
    expect(selectionName('1714', m(''))).toBe('Arsenal');
    expect(selectionName('77', m(''))).toBe('77');
  };

  it('without descriptions: today\'s names', () => {
    fallbacks();
    expect(marketName(18, undefined, 'total=2.5')).toBe('Total');
    expect(selectionName('12', m('total=2.5', 18))).toBe('Over 2.5');
  });

  it('with descriptions, the callers that pass no type id still get today\'s names', () => {
    setMarketDescriptions('en', MARKET_DESCRIPTIONS);
    expect(selectionName('2', m(''))).toBe('Draw');
    expect(selectionName('12', m('total=2.5'))).toBe('Over 2.5');
    expect(selectionName('1715', m('hcp=-0.25'))).toBe('Chelsea (+0.25)');
    // Market names without a catalogue name: the description's, without a line when none is given.
    expect(marketName(18)).toBe('Total');
    expect(marketName(223)).toBe('Handicap (incl. overtime)');
    expect(marketName(219)).toBe('Winner (incl. overtime)');
    expect(marketName(1)).toBe('1x2');
  });

  it('with descriptions: the catalogue name still wins, then the description\'s, then today\'s', () => {
    setMarketDescriptions('en', MARKET_DESCRIPTIONS);
    expect(marketName(1, '1X2')).toBe('1X2');
    expect(marketName(18, 'Over/Under', 'total=2.5')).toBe('Over/Under');
    expect(marketName(18, undefined, 'total=2.5')).toBe('Total 2.5');
    expect(marketName(16, null, 'hcp=-0.25')).toBe('Handicap -0.25');
    expect(marketName(999, undefined, 'total=2.5')).toBe('Market 999');
    setMarketDescriptions('en', [...MARKET_DESCRIPTIONS, { id: 60, name: '{$competitor1} total', groups: [], outcomes: [], specifiers: [] }]);
    expect(marketName(60)).toBe('Home total');
    expect(marketName(60, undefined, '', teams)).toBe('Arsenal total');
  });

  it('with descriptions and the type id: the description\'s outcome names, first letter up', () => {
    setMarketDescriptions('en', MARKET_DESCRIPTIONS);
    expect(selectionName('1', m('', 1))).toBe('Arsenal');
    expect(selectionName('2', m('', 1))).toBe('Draw');
    expect(selectionName('12', m('total=2.5', 18))).toBe('Over 2.5');
    expect(selectionName('13', m('total=2.5', 225))).toBe('Under 2.5');
    expect(selectionName('1714', m('hcp=-0.25', 16))).toBe('Arsenal (-0.25)');
    expect(selectionName('1715', m('hcp=-0.25', 16))).toBe('Chelsea (+0.25)');
    expect(selectionName('1714', m('hcp=0', 223))).toBe('Arsenal (0)');
    // The description does not know it: today's names.
    expect(selectionName('77', m('', 18))).toBe('77');
    expect(selectionName('2', m('', 999))).toBe('Draw');
    setMarketDescriptions('en', [{ id: 1, name: '1x2', groups: [], outcomes: [{ id: '2', name: 'tie' }], specifiers: [] }]);
    expect(selectionName('2', m('', 1))).toBe('Tie');
  });

  it('after the descriptions are forgotten: today\'s names again', () => {
    setMarketDescriptions('en', MARKET_DESCRIPTIONS);
    clearMarketDescriptions();
    fallbacks();
  });
});

describe('the UOF client hands the descriptions it loads to the registry', () => {
  /** Just enough of the client's collaborators for loadDescriptions: the API's answer and the table's statements. */
  const client = (api: () => Promise<UofMarketDescription[]>, stored: UofMarketDescription[]) => {
    const chain = { values: () => chain, onConflictDoUpdate: async () => undefined, from: () => chain, where: async () => stored.map((d) => ({ lang: 'en', marketId: d.id, description: d })) };
    const db = { insert: () => chain, select: () => chain };
    return new UofClient({ engine: {} as never, db: db as never, transport: {} as never, api: { marketDescriptions: api } as never }) as unknown as { loadDescriptions(): Promise<void> };
  };

  it('from the API', async () => {
    await client(async () => MARKET_DESCRIPTIONS, []).loadDescriptions();
    expect(describedMarketName(18, 'total=2.5', teams)).toBe('Total 2.5');
  });

  it('from the table when the API fails', async () => {
    const c = client(async () => {
      throw new Error('down');
    }, MARKET_DESCRIPTIONS.filter((d) => d.id === 16));
    await expect(c.loadDescriptions()).rejects.toThrow('down');
    expect(describedOutcomeName(16, '1714', 'hcp=1', teams)).toBe('Arsenal (+1)');
    expect(describedMarketName(18, 'total=2.5', teams)).toBeNull();
  });
});
