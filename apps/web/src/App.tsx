import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { App as AntApp, ConfigProvider } from 'antd';
import i18n, { antdLocale } from './locales';
import { useFocusableScrollRegions } from './kit/a11y';
import { ApiFailure } from './kit/api';
import { AuthProvider } from './kit/auth';
import { FeedbackBridge } from './kit/feedback';
import { PrefsProvider, usePrefs } from './kit/prefs';
import { AppRouter } from './app/router';
import { useSite } from './kit/site';
import { useConsoleTheme } from './app/theme';

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
  const themeConfig = useConsoleTheme(site.color, theme);
  useFocusableScrollRegions();

  return (
    <ConfigProvider theme={themeConfig} locale={antdLocale(language)}>
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
