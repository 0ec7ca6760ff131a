/**
 * Market and outcome names from the feed's market descriptions (`/v1/descriptions/{lang}/markets.xml`), with
 * UOF's name templates as Sportradar documents them. A name is text with expressions in braces, each an
 * optional operator and an operand:
 *  - `{total}`: the specifier's value as sent ('Total {total}', total=2.5 → 'Total 2.5');
 *  - `{+hcp}` / `{-hcp}`: the value signed / negated and signed (hcp=-0.25 → '-0.25' / '+0.25'; 0 → '0');
 *  - `{!periodnr}`: the value as an ordinal (1 → '1st', 2 → '2nd', 11 → '11th', 23 → '23rd');
 *  - `{$competitor1}` / `{$competitor2}` / `{$event}`: home, away, 'home vs away';
 *  - `{%player}`: a player's or competitor's name in the API's profiles, which we do not fetch: the
 *    specifier's value (the URN) stands for it;
 *  - the operand of `{…}`, `{+…}`, `{-…}`, `{!…}` may be `(name+n)` / `(name-n)`: the specifier's value plus or
 *    minus a number ('{!(inningnr+1)} inning').
 * Never a throw: an expression whose specifier the market does not carry is left out (a type's name without
 * its line: 'Total {total}' with no specifiers → 'Total', '{$competitor1} ({+hcp})' → the home team); a value
 * that is not a number where one is needed is written as it came; an expression we do not understand loses
 * its braces ('{^x}' → '^x'); unbalanced braces stay as they are.
 *
 * Languages: the registry keeps the descriptions per language (the client's `lang`, 'en' by default; the
 * feed also serves e.g. 'sw' Swahili and 'zh' Chinese). Today the callers (feed/names.ts: the odds views and
 * bet placement) pass no language, so names are English as before; the bettor-language names come from
 * option_translation. A language without descriptions for a market falls back to the English ones. Ordinals
 * are English ('1st'); other languages get the number and a dot ('1.'), as the SDKs do for a locale without
 * an ordinal rule.
 *
 * The registry lives in the memory of the process whose UOF client loaded the descriptions (client.ts
 * loadDescriptions); another process has none and its callers use their own fallbacks.
 */
import type { UofMarketDescription } from './types.js';

export const DEFAULT_LANG = 'en';

/** Who plays: the names `{$competitor1}`, `{$competitor2}` and `{$event}` stand for. */
export interface NameContext {
  home: string;
  away: string;
  /**
   * Upper-case the name's first letter when it comes from the template's own text ('draw' → 'Draw',
   * 'over {total}' → 'Over 2.5'), never when it is a team's name or a value. Off by default: the name as
   * the description writes it.
   */
  upperFirst?: boolean;
}

interface Described {
  name: string;
  outcomes: Map<string, string>;
}

const registry = new Map<string, Map<number, Described>>();

const langKey = (lang?: string | null) => (typeof lang === 'string' && lang.trim() ? lang.trim().toLowerCase() : DEFAULT_LANG);

/**
 * The descriptions of one language, replacing the ones it had (an empty list forgets them). Entries without a
 * numeric id or a name are skipped; of two with the same id the last stands (as in the client's own map).
 */
export function setMarketDescriptions(lang: string, list: readonly UofMarketDescription[]): void {
  const byId = new Map<number, Described>();
  for (const d of Array.isArray(list) ? list : []) {
    if (!d || typeof d !== 'object' || !Number.isFinite(Number(d.id)) || typeof d.name !== 'string') continue;
    const outcomes = new Map<string, string>();
    for (const o of Array.isArray(d.outcomes) ? d.outcomes : []) if (o && o.id != null && typeof o.name === 'string') outcomes.set(String(o.id), o.name);
    byId.set(Number(d.id), { name: d.name, outcomes });
  }
  if (byId.size) registry.set(langKey(lang), byId);
  else registry.delete(langKey(lang));
}

/** Forgets the descriptions of a language, or of every language (tests). */
export function clearMarketDescriptions(lang?: string): void {
  if (lang === undefined) registry.clear();
  else registry.delete(langKey(lang));
}

/** The description of a market in a language, else in English, with the language it is written in. */
function lookup(typeId: number, lang?: string | null): { d: Described; lang: string } | null {
  const want = langKey(lang);
  for (const l of want === DEFAULT_LANG ? [want] : [want, DEFAULT_LANG]) {
    const d = registry.get(l)?.get(Number(typeId));
    if (d) return { d, lang: l };
  }
  return null;
}

/** 'total=2.5', 'hcp=0:1|variant=sr:exact_goals:6' → { total: '2.5' } / { hcp: '0:1', variant: 'sr:exact_goals:6' }. */
export function parseSpecifiers(specifiers: string | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof specifiers !== 'string') return out;
  for (const part of specifiers.split('|')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    if (key) out[key] = part.slice(at + 1).trim();
  }
  return out;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const NAME = /^[A-Za-z_][\w]*$/;
const ARITHMETIC = /^\(\s*([A-Za-z_][\w]*)\s*([+-])\s*(\d+(?:\.\d+)?)\s*\)$/;

/** A number as text, without float noise (2.5 + 1 → '3.5', 0.1 + 0.2 → '0.3') and without a negative zero. */
const num = (n: number) => String(Number(n.toFixed(10)) || 0);
const signed = (n: number) => (n > 0 ? `+${num(n)}` : num(n));

function ordinal(n: number, lang: string): string {
  if (!lang.startsWith('en')) return `${n}.`;
  const tens = Math.abs(n) % 100;
  const units = Math.abs(n) % 10;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : units === 1 ? 'st' : units === 2 ? 'nd' : units === 3 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

/** A letter upper-cased in the language's way, in the default way for a tag Intl refuses. */
function upper(c: string, lang: string): string {
  try {
    return c.toLocaleUpperCase(lang);
  } catch {
    return c.toUpperCase();
  }
}

/** An operand's value: the raw text and, when it is one, its number; null when the specifier is absent; undefined when the operand is not one we read. */
function operand(text: string, specs: Record<string, string>): { raw: string; n: number | null } | null | undefined {
  if (NAME.test(text)) {
    const v = specs[text];
    if (v === undefined || v === '') return null;
    return { raw: v, n: NUMBER.test(v) ? Number(v) : null };
  }
  const m = ARITHMETIC.exec(text);
  if (!m) return undefined;
  const v = specs[m[1]];
  if (v === undefined || v === '') return null;
  if (!NUMBER.test(v)) return { raw: v, n: null };
  const n = Number(v) + (m[2] === '+' ? 1 : -1) * Number(m[3]);
  return { raw: num(n), n };
}

/** One expression (the text between the braces): its text, null to leave it out. */
function evaluate(expr: string, specs: Record<string, string>, ctx: NameContext, lang: string): string | null {
  const e = expr.trim();
  const op = '+-!$%'.includes(e[0] ?? '') ? e[0] : '';
  const rest = (op ? e.slice(1) : e).trim();
  if (!rest) return e; // '{}', '{+}': nothing to read
  if (op === '$') {
    const home = typeof ctx?.home === 'string' && ctx.home ? ctx.home : 'Home';
    const away = typeof ctx?.away === 'string' && ctx.away ? ctx.away : 'Away';
    if (rest === 'competitor1') return home;
    if (rest === 'competitor2') return away;
    if (rest === 'event') return `${home} vs ${away}`;
    return rest;
  }
  const v = operand(rest, specs);
  if (v === undefined) return op === '%' ? rest : e; // not an operand we read: the braces removed
  if (v === null) return null;
  switch (op) {
    case '+':
      return v.n === null ? v.raw : signed(v.n);
    case '-':
      return v.n === null ? v.raw : signed(-v.n);
    case '!':
      return v.n !== null && Number.isInteger(v.n) ? ordinal(v.n, lang) : v.raw;
    default: // none: the value as is; '%': the URN stands for the profile's name
      return v.raw;
  }
}

/**
 * A name template rendered with a market's specifiers and the match's competitors (see the top of the file).
 * Never throws: an odd template or input gives the most readable text it can.
 */
export function renderNameTemplate(template: string, specifiers: string | Record<string, string> | null | undefined, ctx: NameContext, lang?: string): string {
  if (typeof template !== 'string') return '';
  try {
    const specs = typeof specifiers === 'string' || specifiers == null ? parseSpecifiers(specifiers) : { ...specifiers };
    const l = langKey(lang);
    let dropped = false;
    let literalFirst = true;
    let out = '';
    let at = 0;
    for (const m of template.matchAll(/\{([^{}]*)\}/g)) {
      const start = m.index ?? 0;
      out += template.slice(at, start);
      const value = evaluate(m[1], specs, ctx, l);
      if (value === null) dropped = true;
      else {
        if (!out.trim() && value.trim()) literalFirst = false;
        out += value;
      }
      at = start + m[0].length;
    }
    out += template.slice(at);
    if (dropped)
      out = out
        .replace(/\(\s*\)|\[\s*\]/g, '')
        .replace(/\s+([),\]])/g, '$1')
        .replace(/\s{2,}/g, ' ');
    out = out.trim();
    if (ctx?.upperFirst && literalFirst && out) out = upper(out[0], l) + out.slice(1);
    return out;
  } catch {
    return template.replace(/[{}]/g, '').trim();
  }
}

/**
 * The name of a market as its description writes it, rendered ('Total {total}', 'total=2.5' → 'Total 2.5'),
 * or null when no description of the language (or of English) knows the market.
 */
export function describedMarketName(typeId: number, specifiers: string | null | undefined, ctx: NameContext, lang?: string): string | null {
  try {
    const found = lookup(typeId, lang);
    if (!found) return null;
    return renderNameTemplate(found.d.name, specifiers, ctx, found.lang) || null;
  } catch {
    return null;
  }
}

/**
 * The name of one outcome of a market as the market's description writes it, rendered ('over {total}',
 * 'total=2.5' → 'over 2.5'; '{$competitor1} ({+hcp})', 'hcp=-0.25' → 'Arsenal (-0.25)'), or null when no
 * description knows the market or the market's description has no such outcome (a variant market's outcomes,
 * 'sr:exact_goals:6:…', are described elsewhere).
 */
export function describedOutcomeName(typeId: number, outcomeId: string, specifiers: string | null | undefined, ctx: NameContext, lang?: string): string | null {
  try {
    const found = lookup(typeId, lang);
    const template = found?.d.outcomes.get(String(outcomeId));
    if (template === undefined) return null;
    return renderNameTemplate(template, specifiers, ctx, found!.lang) || null;
  } catch {
    return null;
  }
}
