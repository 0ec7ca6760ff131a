import { useMemo } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { App as AntApp, ConfigProvider, theme as antdTheme, type ThemeConfig } from 'antd';
import type { Locale as AntLocale } from 'antd/es/locale';
// antd/es (not antd/locale, which re-exports the CommonJS build) so that only the ES modules are bundled.
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import swKE from './locales/antd-sw_KE';
import type { Locale } from '@dau/domain';
import i18n from './locales';
import { ApiFailure } from './app/api';
import { AuthProvider } from './app/auth';
import { FeedbackBridge } from './app/feedback';
import { PrefsProvider, usePrefs } from './app/prefs';
import { AppRouter } from './app/router';
import { needsDarkText, shade, useSite } from './app/site';

const ANTD_LOCALES: Record<Locale, AntLocale> = { 'en-US': enUS, 'sw-KE': swKE, 'zh-CN': zhCN };

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A refusal (4xx) will not change by asking again; a network or server error may.
      retry: (count, err) => !(err instanceof ApiFailure && err.status >= 400 && err.status < 500) && count < 2,
    },
    mutations: { retry: false },
  },
});

function Themed() {
  const { t } = useTranslation();
  const { theme, language } = usePrefs();
  const site = useSite(t('common.appName'));
  const themeConfig = useMemo<ThemeConfig>(() => {
    const dark = theme === 'dark';
    // A light primary such as #f5ca47 cannot carry white text, nor be read as text on white: primary
    // buttons get dark text, and in the light theme links and selected menu entries a darker shade.
    const lightPrimary = needsDarkText(site.color);
    const ink = 'rgba(0, 0, 0, 0.88)';
    // Links take the site colour in both themes: a darker shade on white, the colour itself on dark.
    const link = lightPrimary && !dark
      ? { colorLink: shade(site.color, 0.55), colorLinkHover: shade(site.color, 0.7) }
      : { colorLink: site.color, colorLinkHover: site.color };
    return {
      algorithm: dark ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm,
      token: { colorPrimary: site.color, borderRadius: 6, ...link },
      components: {
        Button: lightPrimary ? { primaryColor: ink } : {},
        Menu: {
          subMenuItemBg: 'transparent',
          ...(lightPrimary && !dark ? { itemSelectedColor: ink, subMenuItemSelectedColor: ink } : {}),
        },
      },
    };
  }, [site.color, theme]);

  return (
    <ConfigProvider theme={themeConfig} locale={ANTD_LOCALES[language]}>
      <AntApp message={{ maxCount: 5, stack: false }}>
        <FeedbackBridge />
        <AuthProvider>
          <AppRouter />
        </AuthProvider>
      </AntApp>
    </ConfigProvider>
  );
}

export default function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <I18nextProvider i18n={i18n}>
        <PrefsProvider>
          <Themed />
        </PrefsProvider>
      </I18nextProvider>
    </QueryClientProvider>
  );
}
