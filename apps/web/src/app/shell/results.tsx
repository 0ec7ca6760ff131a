import type { ReactNode } from 'react';
import { Button } from 'antd';
import { Result } from '../../kit/LazyResult';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useMsg } from '../../kit/messages';

/** A full-page answer of the shell instead of a screen, found by its test id. */
function ShellResult({ testId, status, title, subTitle, extra }: { testId: string; status: '403' | '404' | 'error' | 'info'; title: ReactNode; subTitle: ReactNode; extra?: ReactNode }) {
  return (
    <div data-testid={testId}>
      <Result status={status} title={title} subTitle={subTitle} extra={extra} />
    </div>
  );
}

/** Back to the console's first page. */
function GoHome() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return <Button onClick={() => navigate('/customer')}>{t('shell.goHome')}</Button>;
}

/** The page does not exist in this console (or is not a page at all). */
export function NotFoundResult() {
  const { t } = useTranslation();
  return <ShellResult testId="result-404" status="404" title={t('shell.notFoundTitle')} subTitle={t('shell.notFoundHint')} extra={<GoHome />} />;
}

/** The admin's role does not grant this page. */
export function ForbiddenResult() {
  const { t } = useTranslation();
  const msg = useMsg();
  return <ShellResult testId="result-403" status="403" title={msg('FORBIDDEN')} subTitle={t('shell.forbiddenHint')} extra={<GoHome />} />;
}

/** A screen's code could not be loaded or crashed (spec §8 "Resource error"). */
export function ResourceErrorResult({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  const msg = useMsg();
  return (
    <ShellResult
      testId="result-resource-error"
      status="error"
      title={msg('RESOURCE_ERROR')}
      subTitle={t('shell.resourceErrorHint')}
      extra={
        <Button type="primary" onClick={onRetry} data-testid="screen-retry">
          {t('common.retry')}
        </Button>
      }
    />
  );
}

/** The role grants no page this console has. */
export function NoPagesResult() {
  const { t } = useTranslation();
  return <ShellResult testId="result-no-pages" status="info" title={t('shell.noPagesTitle')} subTitle={t('shell.noPagesHint')} />;
}
