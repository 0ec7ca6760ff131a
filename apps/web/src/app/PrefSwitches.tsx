import { useState } from 'react';
import { Button, Flex, Popover, Tooltip } from 'antd';
import { CheckOutlined, GlobalOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SUPPORTED_LOCALES } from '@dau/domain';
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

/** en-US / sw-KE / zh-CN (stored under `language`); applies to texts, antd and dates at once. */
export function LanguageSwitch({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const { language, setLanguage } = usePrefs();
  const [open, setOpen] = useState(false);
  const choices = (
    <Flex vertical role="listbox" aria-label={t('language.label')}>
      {SUPPORTED_LOCALES.map((code) => (
        <Button
          key={code}
          type="text"
          role="option"
          aria-selected={code === language}
          data-testid={`language-option-${code}`}
          style={{ justifyContent: 'space-between', minWidth: 150 }}
          onClick={() => {
            setLanguage(code);
            setOpen(false);
          }}
        >
          <span lang={code}>{t(`language.${code}`)}</span>
          {code === language ? <CheckOutlined /> : <span />}
        </Button>
      ))}
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
