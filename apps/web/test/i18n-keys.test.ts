import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '@dau/domain';
import * as contract from '@dau/contract';
import { APP_PLATFORMS, flattenCatalogue, PENDING_CHANGE_STATUSES, MESSAGE_AUDIENCES, MESSAGE_SEND_STATUSES, SCRIPT_RUN_STATES, SERVER_STATES, SMS_EXCLUSION_SOURCES, SMS_RECIPIENT_STATUSES, SMS_SEND_STATUSES, SMS_TARGET_KINDS } from '@dau/contract';
import { CASHOUT_RULE_STATES, HISTORY_KEYS, ORDER_EVENT_KINDS, ORDER_EVENT_SOURCES } from '../src/pages/betting/historyKeys';
import { KNOWN_MARKET_TYPES } from '../src/kit/marketNames';
import { SEARCH_KINDS } from '../src/app/shell/search/model';

/**
 * Every text key the console uses exists in en-US, sw-KE and zh-CN, so no screen shows a raw key
 * (`betting.kind.cashout_rule`) or logs `[i18n] missing key`. A static scan of apps/web/src:
 *
 * - literal keys: `t('a.b')`, `i18n.t('a.b')`, and key-shaped strings handed to components (`title:
 *   'menu.x'`, `label: 'sports.filters.league'`) whose first segment is a namespace of the locale files;
 * - keys built from values (`t(\`betting.kind.${e.kind}\`)`): each template's values come from where they
 *   are defined (the order history's vocabulary, the server's writers, enumerations, the catalogue). A new
 *   template without a source here fails, so it gets one.
 *
 * And the locale files have the same shape in the three languages.
 */

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');
const REPO = path.resolve(ROOT, '../..');
const LANGS = ['en-US', 'sw-KE', 'zh-CN'] as const;

type Tree = { [k: string]: string | Tree };

function walk(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'locales' ? [] : walk(p);
    return /\.(ts|tsx)$/.test(e.name) ? [p] : [];
  });
}

function leaves(t: Tree, prefix = '', out = new Set<string>()): Set<string> {
  for (const [k, v] of Object.entries(t)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.add(key);
    else leaves(v, key, out);
  }
  return out;
}

/** Every locale file of a language, merged (as the console merges them). */
async function localeKeys(lang: string): Promise<Set<string>> {
  const dir = path.join(SRC, 'locales', lang);
  const all = new Set<string>();
  for (const f of fs.readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    const mod = (await import(path.join(dir, f))) as { default: Tree };
    for (const k of leaves(mod.default)) all.add(k);
  }
  return all;
}

/** A key as i18next reads it: plurals (`key_one`, `key_other`) stand for `key`. */
const has = (keys: Set<string>, key: string) => keys.has(key) || keys.has(`${key}_one`) || keys.has(`${key}_other`);

const files = walk(SRC).map((f) => ({ file: path.relative(ROOT, f), text: fs.readFileSync(f, 'utf8') }));
const read = (rel: string) => fs.readFileSync(path.join(REPO, rel), 'utf8');

/** The values of a string union type or a string array in a source text. */
function stringsIn(text: string, startsWith: RegExp): string[] {
  const m = startsWith.exec(text);
  if (!m) throw new Error(`not found: ${startsWith}`);
  const rest = text.slice(m.index + m[0].length);
  const end = rest.search(/[;\]]/);
  return [...rest.slice(0, end).matchAll(/'([^']+)'/g)].map((x) => x[1]);
}

const catalogue = flattenCatalogue();
/** The settings named by duties: resource declarations with a duty, and the `setting` of the server's custom routes. */
const serverSources = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? serverSources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [fs.readFileSync(path.join(dir, e.name), 'utf8')] : []));
const dutySettings = [
  ...Object.values(contract).flatMap((v) => (v && typeof v === 'object' && 'duty' in v && 'name' in v ? [String((v as { name: string }).name)] : [])),
  ...serverSources(path.join(REPO, 'apps/server/src')).flatMap((t) => [...t.matchAll(/duty: \{ ring: '(?:book|two)'[^}]*setting: '(\w+)'/g)].map((m) => m[1]!)),
];
const statisticsShared = read('apps/web/src/pages/statistics/shared.tsx');
const figureKeys = [
  ...[...read('packages/contract/src/statistics.ts').matchAll(/^\s+(\w+): number;/gm)].map((m) => m[1]),
  ...stringsIn(statisticsShared, /export type FigureKey = keyof Figures \|/),
];

/** Each template prefix a screen builds keys from, and where its values come from. */
/** The operations scripts' sources: their names and argument fields are the keys of their texts. */
const opsScripts = fs.readdirSync(path.join(REPO, 'apps/server/src/modules/operations/scripts')).map((f) => read(`apps/server/src/modules/operations/scripts/${f}`));
const TEMPLATES: Record<string, readonly (string | number)[]> = {
  'language.': SUPPORTED_LOCALES,
  'socket.': stringsIn(read('apps/web/src/kit/socket.ts'), /export type SocketStatus =/),
  'menu.': catalogue.filter((e) => e.type === 1).map((e) => e.path),
  'button.': [...new Set(catalogue.filter((e) => e.type === 2).map((e) => e.path.split(':').pop()!))],
  'table.density_': ['large', 'medium', 'small'],
  'betting.kind.': ORDER_EVENT_KINDS,
  'betting.source.': ORDER_EVENT_SOURCES,
  'betting.history.': HISTORY_KEYS,
  'betting.ruleState.': CASHOUT_RULE_STATES,
  'market.type.': KNOWN_MARKET_TYPES,
  'sports.producers.type_': stringsIn(read('apps/server/src/modules/feed/messages.ts'), /export const FEED_MESSAGE_TYPES: readonly FeedMessageType\[\] = \[/),
  'statistics.figure.': figureKeys,
  'statistics.hint.': stringsIn(statisticsShared, /const HINTED = new Set<FigureKey>\(\[/),
  'statistics.chart.': ['money', 'activity', 'cash'],
  'operations.state.': SERVER_STATES,
  'operations.script.states.': SCRIPT_RUN_STATES,
  'operations.script.about.': opsScripts.flatMap((t) => [...t.matchAll(/^  name: '([a-z-]+)',$/gm)].map((m) => m[1]!)),
  'operations.script.arg.': opsScripts.flatMap((t) => [...t.matchAll(/\{ name: '(\w+)', type:/g)].map((m) => m[1]!)),
  'operations.describe.': ['server_list', 'script', 'mysql_lock', 'mysql_time_consuming'],
  'content.uploadType.': ['local', 's3'],
  'promotions.type.': ['signin_streak', 'invitation', 'bet_to_get', 'deposit_match', 'custom'],
  'promotions.status.': ['draft', 'active', 'paused', 'ended'],
  'promotions.reward.': ['cash', 'bonus'],
  'messaging.target.': ['phones', 'filter', 'branch', 'all'],
  // Operators' statements (issue 28): the findings, where a statement came from, its result, the line's status and kind, the provider.
  'money.opStatements.kind.': ['matched', 'ours_only', 'theirs_only', 'amount_mismatch', 'status_mismatch'],
  'money.opStatements.sourceKind.': ['uploaded', 'fetched'],
  'money.opStatements.resultKind.': ['matched', 'mismatch'],
  'money.opStatements.status.': ['success', 'failed', 'pending'],
  'money.opStatements.dir.': ['collect', 'disburse'],
  'money.opStatements.provider.': ['mpesa', 'airtel', 'aggregator'],
  'messaging.replied.': ['yes', 'no'],
  'messaging.audience.': MESSAGE_AUDIENCES,
  'messaging.status.': MESSAGE_SEND_STATUSES,
  'messaging.platform.': APP_PLATFORMS,
  'sms.encoding.': ['gsm7', 'ucs2'],
  'sms.target.': SMS_TARGET_KINDS,
  'sms.recipient.': SMS_RECIPIENT_STATUSES,
  'sms.smsStatus.': ['1', '2'],
  'sms.status.': SMS_SEND_STATUSES,
  'sms.source.': SMS_EXCLUSION_SOURCES,
  'duties.status.': PENDING_CHANGE_STATUSES,
  'duties.setting.': dutySettings,
  'casino.largeWin.reason.': ['multiple', 'amount'],
  'casino.largeWin.reviewed.': ['yes', 'no'],
  // The auditors' reports (issue 30): the events' kinds, the orders' changes, an event's details and their words, the report's totals.
  'audit.kind.': contract.SIGNIFICANT_EVENT_KINDS,
  'audit.change.': contract.ORDER_CHANGE_KINDS,
  'audit.param.': stringsIn(read('apps/web/src/pages/reports/audit/shared.tsx'), /const SHOWN = \[/),
  'audit.value.': ['feed', 'operator', 'system', 'sports', 'casino', 'down', 'recovering', 'yes', 'no', 'multiple', 'amount'],
  'audit.action.': ['visibility', 'live-delay', 'random-bet', 'ranking', 'maintenance', 'other'],
  'audit.totals.': ['matches', 'orders', 'changes', 'cash', 'credit', 'money'],
  // Search everywhere's groups (app/shell/search/model.ts, the server's kinds).
  'search.kind.': SEARCH_KINDS,
  // The racing statistics' figures are the keys of its answer (packages/contract/src/racing-api.ts).
  'racing.figure.': Object.keys(contract.racingStatsAnswer.shape),
  'racing.hint.': Object.keys(contract.racingStatsAnswer.shape),
  // The bettors-list filters a send dialog offers (messaging and SMS).
  'field.': ['risk_level', 'online_status', 'bet_status', 'disabled'],
};
/** Templates whose values are data (a field's `labels` prefix and the codes in the rows): not checkable here. */
const DATA_TEMPLATES = ['${field.labels}.'];

describe('console text keys', async () => {
  const keys = Object.fromEntries(await Promise.all(LANGS.map(async (l) => [l, await localeKeys(l)] as const))) as Record<(typeof LANGS)[number], Set<string>>;
  const namespaces = new Set([...keys['en-US']].map((k) => k.split('.')[0]));

  it('the three languages have the same keys', () => {
    for (const lang of ['sw-KE', 'zh-CN'] as const) {
      expect([...keys['en-US']].filter((k) => !keys[lang].has(k)), `missing in ${lang}`).toEqual([]);
      expect([...keys[lang]].filter((k) => !keys['en-US'].has(k)), `only in ${lang}`).toEqual([]);
    }
  });

  it('every literal key exists in every language', () => {
    const used = new Map<string, string>();
    for (const { file, text } of files) {
      for (const m of text.matchAll(/\bt\(\s*'([^'$]+)'/g)) used.set(m[1], file);
      // Key-shaped strings handed on (title, label, description props of declarations and components).
      for (const m of text.matchAll(/'([a-z][A-Za-z]*(?:\.[A-Za-z0-9_]+)+)'/g)) if (namespaces.has(m[1].split('.')[0])) used.set(m[1], file);
    }
    expect(used.size).toBeGreaterThan(300);
    const missing = [...used].flatMap(([key, file]) => LANGS.filter((l) => !has(keys[l], key)).map((l) => `${l} ${key} (${file})`));
    expect(missing).toEqual([]);
  });

  it('every key built from values exists in every language', () => {
    const templates = new Map<string, string>();
    for (const { file, text } of files) for (const m of text.matchAll(/\bt\(\s*`([^`]*)`/g)) templates.set(m[1], file);
    const unknown: string[] = [];
    const missing: string[] = [];
    for (const [template, file] of templates) {
      const prefix = template.slice(0, template.indexOf('${'));
      if (DATA_TEMPLATES.some((d) => template.startsWith(d))) continue;
      const values = TEMPLATES[prefix];
      if (!values || !/^[^$]*\$\{[^}]+\}$/.test(template)) {
        unknown.push(`${template} (${file})`);
        continue;
      }
      expect(values.length, prefix).toBeGreaterThan(0);
      for (const v of values) for (const l of LANGS) if (!has(keys[l], `${prefix}${v}`)) missing.push(`${l} ${prefix}${v} (${file})`);
    }
    expect(unknown, 'templates without a known source of values: add them to TEMPLATES').toEqual([]);
    expect(missing).toEqual([]);
    // The order history's kinds are those the server writes.
    const written = new Set<string>();
    for (const f of fs.readdirSync(path.join(REPO, 'apps/server/src/modules/betting'))) {
      const text = read(`apps/server/src/modules/betting/${f}`);
      for (const m of text.matchAll(/insert\(orderEvents\)\.values\(\{[^}]*?kind: '(\w+)'/gs)) written.add(m[1]);
      for (const m of text.matchAll(/kind: ('\w+'(?: \| '\w+')+);/g)) for (const k of m[1].matchAll(/'(\w+)'/g)) written.add(k[1]);
    }
    expect([...written].filter((k) => !(ORDER_EVENT_KINDS as readonly string[]).includes(k))).toEqual([]);
    expect(written.has('cashout_rule') && written.has('cashout')).toBe(true);
  });
});
