import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Provider as ReduxProvider } from 'react-redux';
import { ApiBridge } from './ApiBridge';
import { asLanguage, i18n } from './i18n';
import { store as appStore, type AppStore } from './store';

/** Toast placement and duration from spec platform §9. */
export const MESSAGE_CONFIG = { top: 88, duration: 3, maxCount: 5 };

/** Returns the app's query client: one retry for reads, none for writes. */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });
}

const defaultQueryClient = makeQueryClient();

/** The brand colour; antd derives links from its info colour, so links name it too or they stay antd blue. */
const THEME = { token: { colorPrimary: '#5b3df5', colorLink: '#5b3df5', borderRadius: 8 } };

function LocalizedAntd({ children }: { children: ReactNode }) {
  const { i18n: active } = useTranslation();
  const locale = asLanguage(active.language) === 'en-US' ? enUS : zhCN;
  return (
    <ConfigProvider locale={locale} theme={THEME}>
      <AntApp message={MESSAGE_CONFIG}>
        <ApiBridge />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}

export interface ProvidersProps {
  children: ReactNode;
  store?: AppStore;
  queryClient?: QueryClient;
}

/** Wraps the app in Redux, TanStack Query, i18next and antd (locale, App context). */
export function Providers({ children, store = appStore, queryClient = defaultQueryClient }: ProvidersProps) {
  return (
    <ReduxProvider store={store}>
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>
          <LocalizedAntd>{children}</LocalizedAntd>
        </I18nextProvider>
      </QueryClientProvider>
    </ReduxProvider>
  );
}
