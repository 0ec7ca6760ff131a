import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SUPPORTED_LOCALES, DEFAULT_LOCALE, type Locale } from '@dau/domain';
import type { Locale as AntLocale } from 'antd/es/locale';
// antd/es (not antd/locale, which re-exports the CommonJS build) so that only the ES modules are bundled.
import antdEnUS from 'antd/es/locale/en_US';
import enCommon from './en-US/common';
import { storage } from '../kit/storage';
import { loadConsoleMessages, loadSpecMessages } from '../kit/spec-messages';
import { loadLabels } from '../kit/labels';

/**
 * The console's texts. Each area owns one file per language (common: shell, login, shared words; menu:
 * the permission catalogue; system: the system screens and resource field labels; then one per screen
 * area). Files of one language merge into one tree; a test checks every locale has every key of en-US and
 * that no two files claim the same top-level key.
 *
 * Only en-US `common` (the public pages and the shell's own words) and antd's en-US texts are in the start
 * bundle. Every other file is a chunk of one area in one language, loaded with the screens that need it
 * (`loadTexts(area)`: the shell waits for menu and system, a screen for its area) in the language shown
 * (and the one being switched to). Switching language first loads the areas in use (common included) and
 * antd's texts in the new language (`loadLanguage`), then switches, so no text is ever missing on screen;
 * main.tsx does the same for the saved language before the first render.
 */
export const LOCALE_FILES = {
  'en-US': [enCommon],
} as const;

type Texts = { default: object };
const byLanguage = (en: () => Promise<Texts>, sw: () => Promise<Texts>, zh: () => Promise<Texts>): Record<Locale, () => Promise<Texts>> => ({
  'en-US': en,
  'sw-KE': sw,
  'zh-CN': zh,
});

/** Areas whose texts load with their screens, not at start: the sign-in page needs none but common. */
export const LAZY_LOCALE_FILES = {
  common: byLanguage(async () => ({ default: enCommon }), () => import('./sw-KE/common'), () => import('./zh-CN/common')),
  menu: byLanguage(() => import('./en-US/menu'), () => import('./sw-KE/menu'), () => import('./zh-CN/menu')),
  system: byLanguage(() => import('./en-US/system'), () => import('./sw-KE/system'), () => import('./zh-CN/system')),
  money: byLanguage(() => import('./en-US/money'), () => import('./sw-KE/money'), () => import('./zh-CN/money')),
  sports: byLanguage(() => import('./en-US/sports'), () => import('./sw-KE/sports'), () => import('./zh-CN/sports')),
  statistics: byLanguage(() => import('./en-US/statistics'), () => import('./sw-KE/statistics'), () => import('./zh-CN/statistics')),
  betting: byLanguage(() => import('./en-US/betting'), () => import('./sw-KE/betting'), () => import('./zh-CN/betting')),
  jackpot: byLanguage(() => import('./en-US/jackpot'), () => import('./sw-KE/jackpot'), () => import('./zh-CN/jackpot')),
  casino: byLanguage(() => import('./en-US/casino'), () => import('./sw-KE/casino'), () => import('./zh-CN/casino')),
  racing: byLanguage(() => import('./en-US/racing'), () => import('./sw-KE/racing'), () => import('./zh-CN/racing')),
  tron: byLanguage(() => import('./en-US/tron'), () => import('./sw-KE/tron'), () => import('./zh-CN/tron')),
  content: byLanguage(() => import('./en-US/content'), () => import('./sw-KE/content'), () => import('./zh-CN/content')),
  operations: byLanguage(() => import('./en-US/operations'), () => import('./sw-KE/operations'), () => import('./zh-CN/operations')),
  messaging: byLanguage(() => import('./en-US/messaging'), () => import('./sw-KE/messaging'), () => import('./zh-CN/messaging')),
  push: byLanguage(() => import('./en-US/push'), () => import('./sw-KE/push'), () => import('./zh-CN/push')),
  sms: byLanguage(() => import('./en-US/sms'), () => import('./sw-KE/sms'), () => import('./zh-CN/sms')),
  providers: byLanguage(() => import('./en-US/providers'), () => import('./sw-KE/providers'), () => import('./zh-CN/providers')),
  reports: byLanguage(() => import('./en-US/reports'), () => import('./sw-KE/reports'), () => import('./zh-CN/reports')),
  tax: byLanguage(() => import('./en-US/tax'), () => import('./sw-KE/tax'), () => import('./zh-CN/tax')),
  audit: byLanguage(() => import('./en-US/audit'), () => import('./sw-KE/audit'), () => import('./zh-CN/audit')),
  shop: byLanguage(() => import('./en-US/shop'), () => import('./sw-KE/shop'), () => import('./zh-CN/shop')),
  visitors: byLanguage(() => import('./en-US/visitors'), () => import('./sw-KE/visitors'), () => import('./zh-CN/visitors')),
  promotions: byLanguage(() => import('./en-US/promotions'), () => import('./sw-KE/promotions'), () => import('./zh-CN/promotions')),
} as const;

export type LazyArea = keyof typeof LAZY_LOCALE_FILES;

/** One area in one language: fetched once (a failed fetch, after a new deployment or a dropped connection, may be tried again). */
const loaded = new Map<string, Promise<void>>();
/** The areas some screen has asked for: a language switch loads them first. */
const areasInUse = new Set<LazyArea>(['common']);
loaded.set('common/en-US', Promise.resolve());

/** antd's own texts (pagination, pickers, modals) per language; en-US is in the start bundle. */
const ANTD_LOCALE_FILES: Record<Locale, () => Promise<{ default: AntLocale }>> = {
  'en-US': async () => ({ default: antdEnUS }),
  'sw-KE': () => import('./antd-sw_KE'),
  'zh-CN': () => import('antd/es/locale/zh_CN'),
};
const antdLocales: Partial<Record<Locale, AntLocale>> = { 'en-US': antdEnUS };

/** antd's texts in a language loaded by `loadLanguage` (en-US until then). */
export const antdLocale = (lng: Locale): AntLocale => antdLocales[lng] ?? antdEnUS;
/** The language the console started in (read once at start, and loaded by main.tsx before the first render). */
const started: Locale = initialLocale();
export const startedLocale = (): Locale => started;

/** The language being switched to (else the one shown). */
let wanted: Locale = started;

function loadArea(area: LazyArea, lng: Locale): Promise<void> {
  const key = `${area}/${lng}`;
  let done = loaded.get(key);
  if (!done) {
    done = LAZY_LOCALE_FILES[area][lng]().then((m) => {
      i18n.addResourceBundle(lng, 'translation', m.default, true, false);
    });
    done.catch(() => loaded.delete(key));
    loaded.set(key, done);
  }
  return done;
}

const shownLanguages = () => [...new Set([wanted, i18n.language])].filter(isLocale);

/** The texts of an area in the language shown (and the one being switched to); the screen registry waits for it. */
export function loadTexts(area: LazyArea): Promise<void> {
  areasInUse.add(area);
  return Promise.all(shownLanguages().flatMap((lng) => [loadArea(area, lng), loadLabels(lng), loadConsoleMessages(lng)])).then(() => undefined);
}

/** Before switching to `lng`: the areas in use, in that language. */
export function loadLanguage(lng: Locale): Promise<void> {
  wanted = lng;
  const antd = antdLocales[lng]
    ? Promise.resolve()
    : ANTD_LOCALE_FILES[lng]().then((m) => {
        antdLocales[lng] = m.default;
      });
  // The enumerations' labels and the console's messages go with the screens (the sign-in page needs neither).
  const labels = areasInUse.size > 1 ? [loadLabels(lng), loadConsoleMessages(lng)] : [];
  return Promise.all([antd, loadSpecMessages(lng), ...labels, ...[...areasInUse].map((area) => loadArea(area, lng))]).then(() => undefined);
}

const isLocale = (l: string | undefined): l is Locale => (SUPPORTED_LOCALES as readonly (string | undefined)[]).includes(l);

export const resources = Object.fromEntries(
  Object.entries(LOCALE_FILES).map(([lng, files]) => [lng, { translation: Object.assign({}, ...files) }]),
);

/** The saved language (read once, at start: a later save, from another tab, has its texts not loaded here). */
function initialLocale(): Locale {
  const saved = storage.get('language');
  return (SUPPORTED_LOCALES as readonly string[]).includes(saved ?? '') ? (saved as Locale) : DEFAULT_LOCALE;
}

void i18n.use(initReactI18next).init({
  resources,
  lng: started,
  fallbackLng: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  saveMissing: true,
  missingKeyHandler: (_lngs, _ns, key) => {
    // Visible in the browser console and caught by the browser test that renders each language.
    console.error(`[i18n] missing key: ${key}`);
  },
});

export default i18n;
