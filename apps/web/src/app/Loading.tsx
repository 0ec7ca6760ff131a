import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

/** Full-page loading state (session check, a page chunk on its way). */
export function PageLoading() {
  const { t } = useTranslation();
  return (
    <div className="dau-full-center" data-testid="page-loading">
      <Spin size="large" description={t('common.loading')} />
    </div>
  );
}

/** Loading state inside the shell's content area. */
export function ContentLoading() {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: '64px 0' }} data-testid="screen-loading">
      <Spin description={t('common.loading')} />
    </div>
  );
}
