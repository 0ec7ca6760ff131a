import { useEffect, useState } from 'react';
import { Button, Flex, Popover, Tooltip } from 'antd';
import { CheckOutlined, GlobalOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LANGUAGE_SHOW_STATUS, SUPPORTED_LOCALES, type Locale } from '@dau/domain';
import { usePrefs } from './prefs';

/**
 * The theme and language switches of the login page and the shell. Deliberately light (Popover and
 * Buttons, no Dropdown/Menu) so that the login page's JavaScript stays small.
 */

/** Light / dark switch (stored under `theme`: '1' light, '2' dark). */
export function ThemeToggle() {
  const { t } = useTranslation();
  const { theme, setTheme } = usePrefs();
  const label = theme === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        aria-label={label}
        data-testid="theme-toggle"
        data-theme={theme}
        icon={theme === 'dark' ? <SunOutlined /> : <MoonOutlined />}
        onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
      />
    </Tooltip>
  );
}

/** A language of the operator's language list (GET /api/v1/languages?show_status=2, spec §7). */
interface ListedLanguage {
  code: string;
  title: string;
}

const isShipped = (code: string): code is Locale => (SUPPORTED_LOCALES as readonly string[]).includes(code);

/**
 * The shown languages of the language list, in its order (a plain fetch: the sign-in page has no query
 * cache). Until it answers, or when it cannot, the shipped languages.
 */
function useListedLanguages(reloadKey: boolean): ListedLanguage[] | null {
  const [list, setList] = useState<ListedLanguage[] | null>(null);
  useEffect(() => {
    let live = true;
    fetch(`/api/v1/languages?show_status=${LANGUAGE_SHOW_STATUS.shown}`)
      .then((r) => (r.ok ? (r.json() as Promise<{ items: ListedLanguage[] }>) : null))
      .then((a) => {
        if (live && a && Array.isArray(a.items)) setList(a.items.map((l) => ({ code: String(l.code), title: String(l.title) })));
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [reloadKey]);
  return list;
}

/**
 * The console's languages (stored under `language`): the shown ones of the language list (System ›
 * Languages); applies to texts, antd and dates at once. A listed language the console has no translation
 * for is offered disabled, saying so; the language in use is always offered.
 */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { language, setLanguage } = usePrefs();
  const [open, setOpen] = useState(false);
  // Asked again each time the menu opens: an operator's change to the list shows without a reload.
  const listed = useListedLanguages(open);
  const shown: ListedLanguage[] = (() => {
    const base = listed && listed.some((l) => isShipped(l.code)) ? listed : SUPPORTED_LOCALES.map((code) => ({ code, title: '' }));
    return base.some((l) => l.code === language) ? base : [{ code: language, title: '' }, ...base];
  })();
  const choices = (
    <Flex vertical role="listbox" aria-label={t('language.label')}>
      {shown.map(({ code, title }) => {
        const shipped = isShipped(code);
        const button = (
          <Button
            key={code}
            type="text"
            role="option"
            aria-selected={code === language}
            aria-disabled={!shipped || undefined}
            disabled={!shipped}
            data-testid={`language-option-${code}`}
            style={{ justifyContent: 'space-between', minWidth: 150, width: '100%' }}
            onClick={() => {
              if (!shipped) return;
              setLanguage(code);
              setOpen(false);
            }}
          >
            <span lang={code}>{shipped ? t(`language.${code}`) : title || code}</span>
            {code === language ? <CheckOutlined /> : <span />}
          </Button>
        );
        return shipped ? (
          button
        ) : (
          <Tooltip key={code} title={t('language.noTranslation')} placement="left">
            <span data-testid={`language-untranslated-${code}`}>{button}</span>
          </Tooltip>
        );
      })}
    </Flex>
  );
  return (
    <Popover content={choices} trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen} arrow={false}>
      {/* Its name is the language it shows ("English"), described as the language switch; the icon-only
          (compact) button is named by that description. */}
      <Button
        type="text"
        aria-label={compact ? t('language.label') : undefined}
        title={compact ? undefined : t('language.label')}
        data-testid="language-switch"
        data-language={language}
        icon={<GlobalOutlined />}
      >
        {compact ? null : t(`language.${language}`)}
      </Button>
    </Popover>
  );
}
