import { Button, Dropdown, Tooltip } from 'antd';
import { GlobalOutlined, MoonOutlined, SunOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SUPPORTED_LOCALES, type Locale } from '@dau/domain';
import { usePrefs } from './prefs';

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
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [language],
        onClick: ({ key }) => setLanguage(key as Locale),
        items: SUPPORTED_LOCALES.map((code) => ({
          key: code,
          label: <span data-testid={`language-option-${code}`}>{t(`language.${code}`)}</span>,
        })),
      }}
    >
      <Button type="text" aria-label={t('language.label')} data-testid="language-switch" data-language={language} icon={<GlobalOutlined />}>
        {compact ? null : t(`language.${language}`)}
      </Button>
    </Dropdown>
  );
}
