import { Button } from 'antd';
import { Result } from '../../kit/LazyResult';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useMsg } from '../../kit/messages';

/** The page does not exist in this console (or is not a page at all). */
export function NotFoundResult() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div data-testid="result-404">
      <Result
        status="404"
        title={t('shell.notFoundTitle')}
        subTitle={t('shell.notFoundHint')}
        extra={<Button onClick={() => navigate('/customer')}>{t('shell.goHome')}</Button>}
      />
    </div>
  );
}

/** The admin's role does not grant this page. */
export function ForbiddenResult() {
  const { t } = useTranslation();
  const msg = useMsg();
  const navigate = useNavigate();
  return (
    <div data-testid="result-403">
      <Result
        status="403"
        title={msg('FORBIDDEN')}
        subTitle={t('shell.forbiddenHint')}
        extra={<Button onClick={() => navigate('/customer')}>{t('shell.goHome')}</Button>}
      />
    </div>
  );
}

/** A screen's code could not be loaded or crashed (spec §8 "Resource error"). */
export function ResourceErrorResult({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  const msg = useMsg();
  return (
    <div data-testid="result-resource-error">
      <Result
        status="error"
        title={msg('RESOURCE_ERROR')}
        subTitle={t('shell.resourceErrorHint')}
        extra={
          <Button type="primary" onClick={onRetry} data-testid="screen-retry">
            {t('common.retry')}
          </Button>
        }
      />
    </div>
  );
}

/** The role grants no page this console has. */
export function NoPagesResult() {
  const { t } = useTranslation();
  return (
    <div data-testid="result-no-pages">
      <Result status="info" title={t('shell.noPagesTitle')} subTitle={t('shell.noPagesHint')} />
    </div>
  );
}
