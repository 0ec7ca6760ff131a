import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { SUPPORTED_LOCALES, DEFAULT_LOCALE, type Locale } from '@dau/domain';
import enCommon from './en-US/common';
import swCommon from './sw-KE/common';
import zhCommon from './zh-CN/common';
import enMenu from './en-US/menu';
import swMenu from './sw-KE/menu';
import zhMenu from './zh-CN/menu';
import enSystem from './en-US/system';
import swSystem from './sw-KE/system';
import zhSystem from './zh-CN/system';
import { storage } from '../app/storage';

/**
 * The console's texts. Each area owns one file per language (common: shell, login, shared words; menu:
 * the permission catalogue; system: the system screens and resource field labels). Files of one
 * language merge into one tree; a test checks every locale has every key of en-US and that no two
 * files claim the same top-level key.
 */
export const LOCALE_FILES = {
  'en-US': [enCommon, enMenu, enSystem],
  'sw-KE': [swCommon, swMenu, swSystem],
  'zh-CN': [zhCommon, zhMenu, zhSystem],
} as const;

/**
 * Areas whose texts load with their screens, not at start: the sign-in page and the shell do not need
 * them. `loadTexts(area)` adds them to every language once; the screen registry waits for it.
 */
export const LAZY_LOCALE_FILES = {
  money: () =>
    Promise.all([import('./en-US/money'), import('./sw-KE/money'), import('./zh-CN/money')]).then(([en, sw, zh]) => ({
      'en-US': en.default,
      'sw-KE': sw.default,
      'zh-CN': zh.default,
    })),
  sports: () =>
    Promise.all([import('./en-US/sports'), import('./sw-KE/sports'), import('./zh-CN/sports')]).then(([en, sw, zh]) => ({
      'en-US': en.default,
      'sw-KE': sw.default,
      'zh-CN': zh.default,
    })),
  statistics: () =>
    Promise.all([import('./en-US/statistics'), import('./sw-KE/statistics'), import('./zh-CN/statistics')]).then(([en, sw, zh]) => ({
      'en-US': en.default,
      'sw-KE': sw.default,
      'zh-CN': zh.default,
    })),
  betting: () =>
    Promise.all([import('./en-US/betting'), import('./sw-KE/betting'), import('./zh-CN/betting')]).then(([en, sw, zh]) => ({
      'en-US': en.default,
      'sw-KE': sw.default,
      'zh-CN': zh.default,
    })),
} as const;

export type LazyArea = keyof typeof LAZY_LOCALE_FILES;

const loadedAreas = new Map<LazyArea, Promise<void>>();

export function loadTexts(area: LazyArea): Promise<void> {
  let done = loadedAreas.get(area);
  if (!done) {
    done = LAZY_LOCALE_FILES[area]().then((byLanguage) => {
      for (const [lng, tree] of Object.entries(byLanguage)) i18n.addResourceBundle(lng, 'translation', tree, true, false);
    });
    // A failed fetch (a new deployment, a dropped connection) may be tried again.
    done.catch(() => loadedAreas.delete(area));
    loadedAreas.set(area, done);
  }
  return done;
}

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
