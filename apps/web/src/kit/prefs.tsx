import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { SUPPORTED_LOCALES, type Locale } from '@dau/domain';
import i18n, { loadLanguage, startedLocale } from '../locales';
import { storage } from './storage';

/**
 * What the operator chose for this browser (spec §9): the theme (key `theme`: '1' light, default; '2' dark),
 * the language (key `language`, default en-US) and the menu layout (key `layout`: side menu or top menu).
 * Switching any of them applies at once, without a reload.
 */
export type ThemeMode = 'light' | 'dark';
export type LayoutMode = 'side' | 'top';

export interface Prefs {
  theme: ThemeMode;
  setTheme(t: ThemeMode): void;
  language: Locale;
  setLanguage(l: Locale): void;
  layout: LayoutMode;
  setLayout(l: LayoutMode): void;
}

const PrefsContext = createContext<Prefs | null>(null);

function applyLanguage(lng: Locale) {
  void i18n.changeLanguage(lng);
  // dayjs follows i18n (kit/timeZone.ts), loaded with the screens that show times.
  document.documentElement.lang = lng;
}

function applyTheme(mode: ThemeMode) {
  document.documentElement.dataset.theme = mode;
  document.documentElement.style.colorScheme = mode;
}

export function PrefsProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<ThemeMode>(() => {
    const mode = storage.get('theme') === '2' ? 'dark' : 'light';
    applyTheme(mode);
    return mode;
  });
  // The language main.tsx loaded before the first render (the one i18n started in), not the saved one read
  // again: another tab (or a test) may have saved a different language since, whose texts are not loaded.
  const [language, setLanguageState] = useState<Locale>(() => {
    const lng = startedLocale();
    applyLanguage(lng);
    return lng;
  });
  const [layout, setLayoutState] = useState<LayoutMode>(() => (storage.get('layout') === 'top' ? 'top' : 'side'));

  const setTheme = useCallback((mode: ThemeMode) => {
    storage.set('theme', mode === 'dark' ? '2' : '1');
    applyTheme(mode);
    setThemeState(mode);
  }, []);
  // The last language asked for: a slower load of an earlier choice must not switch back to it.
  const asked = useRef<Locale | null>(null);
  const setLanguage = useCallback((lng: Locale) => {
    if (!(SUPPORTED_LOCALES as readonly string[]).includes(lng)) return;
    storage.set('language', lng);
    asked.current = lng;
    // The texts of the screens in use, in the new language, first (src/locales/index.ts); a failed fetch
    // still switches (the words it lacks show as their keys, and the screen's next load fetches them).
    const apply = () => {
      if (asked.current !== lng) return;
      applyLanguage(lng);
      setLanguageState(lng);
    };
    loadLanguage(lng).then(apply, apply);
  }, []);
  const setLayout = useCallback((mode: LayoutMode) => {
    storage.set('layout', mode);
    setLayoutState(mode);
  }, []);

  const value = useMemo(
    () => ({ theme, setTheme, language, setLanguage, layout, setLayout }),
    [theme, setTheme, language, setLanguage, layout, setLayout],
  );
  return <PrefsContext.Provider value={value}>{children}</PrefsContext.Provider>;
}

export function usePrefs(): Prefs {
  const v = useContext(PrefsContext);
  if (!v) throw new Error('usePrefs outside PrefsProvider');
  return v;
}
