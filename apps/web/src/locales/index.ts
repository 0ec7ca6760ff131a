import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SUPPORTED_LOCALES, DEFAULT_LOCALE, type Locale } from '@dau/domain';
import enCommon from './en-US/common';
import swCommon from './sw-KE/common';
import zhCommon from './zh-CN/common';
import { storage } from '../app/storage';

/**
 * The console's texts. Each area owns one file per language (common: shell, login, shared words; menu:
 * the permission catalogue; system: the system screens and resource field labels; then one per screen
 * area). Files of one language merge into one tree; a test checks every locale has every key of en-US and
 * that no two files claim the same top-level key.
 *
 * Only `common` (the public pages and the shell's own words) is in the start bundle, in the three
 * languages. Every other area is a chunk per language, loaded with the screens that need it
 * (`loadTexts(area)`: the shell waits for menu and system, a screen for its area) in the language shown
 * (and the one being switched to); switching language first loads the areas already in use in the new
 * language (`loadLanguage`), then switches, so no text is ever missing on screen.
 */
export const LOCALE_FILES = {
  'en-US': [enCommon],
  'sw-KE': [swCommon],
  'zh-CN': [zhCommon],
} as const;

type Texts = { default: object };
const byLanguage = (en: () => Promise<Texts>, sw: () => Promise<Texts>, zh: () => Promise<Texts>): Record<Locale, () => Promise<Texts>> => ({
  'en-US': en,
  'sw-KE': sw,
  'zh-CN': zh,
});

/** Areas whose texts load with their screens, not at start: the sign-in page needs none of them. */
export const LAZY_LOCALE_FILES = {
  menu: byLanguage(() => import('./en-US/menu'), () => import('./sw-KE/menu'), () => import('./zh-CN/menu')),
  system: byLanguage(() => import('./en-US/system'), () => import('./sw-KE/system'), () => import('./zh-CN/system')),
  money: byLanguage(() => import('./en-US/money'), () => import('./sw-KE/money'), () => import('./zh-CN/money')),
  sports: byLanguage(() => import('./en-US/sports'), () => import('./sw-KE/sports'), () => import('./zh-CN/sports')),
  statistics: byLanguage(() => import('./en-US/statistics'), () => import('./sw-KE/statistics'), () => import('./zh-CN/statistics')),
  betting: byLanguage(() => import('./en-US/betting'), () => import('./sw-KE/betting'), () => import('./zh-CN/betting')),
} as const;

export type LazyArea = keyof typeof LAZY_LOCALE_FILES;

/** One area in one language: fetched once (a failed fetch, after a new deployment or a dropped connection, may be tried again). */
const loaded = new Map<string, Promise<void>>();
/** The areas some screen has asked for: a language switch loads them first. */
const areasInUse = new Set<LazyArea>();
/** The language being switched to (else the one shown). */
let wanted: Locale = initialLocale();

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
  return Promise.all(shownLanguages().map((lng) => loadArea(area, lng))).then(() => undefined);
}

/** Before switching to `lng`: the areas in use, in that language. */
export function loadLanguage(lng: Locale): Promise<void> {
  wanted = lng;
  return Promise.all([...areasInUse].map((area) => loadArea(area, lng))).then(() => undefined);
}

const isLocale = (l: string | undefined): l is Locale => (SUPPORTED_LOCALES as readonly (string | undefined)[]).includes(l);

export const resources = Object.fromEntries(
  Object.entries(LOCALE_FILES).map(([lng, files]) => [lng, { translation: Object.assign({}, ...files) }]),
);

export function initialLocale(): Locale {
  const saved = storage.get('language');
  return (SUPPORTED_LOCALES as readonly string[]).includes(saved ?? '') ? (saved as Locale) : DEFAULT_LOCALE;
}

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLocale(),
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
