import { describe, expect, it } from 'vitest';
import enDomain from '../../../packages/domain/src/locales/en-US';
import swDomain from '../../../packages/domain/src/locales/sw-KE';
import zhDomain from '../../../packages/domain/src/locales/zh-CN';

/**
 * The glossary of the product's betting terms (docs/glossary.md): a term of the English texts is said the
 * same way in every Swahili and Chinese text, and never with the word a walk through the console found
 * saying something else ("Tiketi zilizolipwa", paid tickets, for settled orders; "faida", profit, for a
 * margin; "Mzalishaji", a manufacturer, for a feed producer). Every console text and every label of the
 * domain is checked, key by key.
 */
interface Term {
  term: string;
  /** Where the English text uses the term. */
  en: RegExp;
  /** Not this term after all (a narrower term of the glossary says it). */
  unless?: RegExp;
  sw: { use: RegExp; avoid?: RegExp };
  zh: { use: RegExp };
}

const GLOSSARY: Term[] = [
  // A bet is settled when its result decides it: "kuamua" (imeamuliwa, uamuzi wa madau), never "kulipa" (to pay).
  { term: 'settle', en: /settl/i, unless: /early settl/i, sw: { use: /amu[aliz]/i, avoid: /ulipaji|zilizolipwa|imelipwa/i }, zh: { use: /结算/ } },
  // Early settlement is the cashout: "kutoa mapema" (to take out early).
  { term: 'cashout', en: /early settl|cash ?out/i, sw: { use: /toa mapema|tolewa mapema|kutoa mapema/i }, zh: { use: /提前结算|兑现/ } },
  // The bookmaker's margin on a price: "ukingo", never "faida" (profit).
  { term: 'margin', en: /margin/i, sw: { use: /ukingo/i, avoid: /faida/i }, zh: { use: /利润率/ } },
  // The feed's producer (pre-match, live): "chanzo" (source), never "mzalishaji" (manufacturer).
  { term: 'producer', en: /producer/i, sw: { use: /chanzo|vyanzo/i, avoid: /mzalishaji/i }, zh: { use: /生产者/ } },
  // A settlement or cancel taken back: "kutengua" (to revoke); the casino's rollback returns a stake: "kurejesha".
  { term: 'rollback', en: /roll(ed|s)?[ -]?back/i, sw: { use: /tengu|rejesh/i, avoid: /rudisha nyuma/i }, zh: { use: /回滚/ } },
  // A void bet or line: "batili".
  { term: 'void', en: /\bvoid/i, sw: { use: /batili/i }, zh: { use: /作废|无效/ } },
];

type Tree = { [k: string]: string | Tree };
const flat = (t: unknown, prefix: string, out: Record<string, string>) => {
  for (const [k, v] of Object.entries(t as Tree)) {
    if (typeof v === 'string') out[`${prefix}${k}`] = v;
    else flat(v, `${prefix}${k}.`, out);
  }
  return out;
};

const consoleFiles = import.meta.glob('../src/locales/*/*.ts', { eager: true }) as Record<string, { default?: unknown }>;
function texts(lang: 'en-US' | 'sw-KE' | 'zh-CN', domain: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [file, mod] of Object.entries(consoleFiles)) {
    const [, dir, name] = /locales\/([^/]+)\/([^/]+)\.ts$/.exec(file)!;
    if (dir === lang && mod.default && typeof mod.default === 'object') flat(mod.default, `${name}:`, out);
  }
  return flat(domain, 'domain:', out);
}

const en = texts('en-US', enDomain);
const sw = texts('sw-KE', swDomain);
const zh = texts('zh-CN', zhDomain);

describe('the glossary of betting terms', () => {
  it('reads every text (console and domain) in the three languages', () => {
    expect(Object.keys(en).length).toBeGreaterThan(2000);
    expect(Object.keys(sw).length).toBe(Object.keys(en).length);
  });

  for (const g of GLOSSARY) {
    it(`says "${g.term}" the glossary's way in sw-KE and zh-CN`, () => {
      const wrong: string[] = [];
      let uses = 0;
      for (const [key, text] of Object.entries(en)) {
        if (!g.en.test(text) || g.unless?.test(text)) continue;
        uses++;
        const s = sw[key] ?? '';
        const z = zh[key] ?? '';
        if (!g.sw.use.test(s) || g.sw.avoid?.test(s)) wrong.push(`sw-KE ${key}: "${text}" → "${s}"`);
        if (!g.zh.use.test(z)) wrong.push(`zh-CN ${key}: "${text}" → "${z}"`);
      }
      expect(uses, 'the term is used').toBeGreaterThan(0);
      expect(wrong).toEqual([]);
    });
  }
});
