import type { ReactNode } from 'react';
import { Button, Empty } from 'antd';
import { Result } from '../kit/LazyResult';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../kit/api';
import { useErrorText, useMsg } from '../kit/messages';

/** "No data" in the operator's language. */
export function NoData() {
  const msg = useMsg();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('NO_DATA')} />;
}

/** What a query screen still needs, e.g. "Please enter the mobile phone number of the user you want to query". */
export function QueryHint({ children }: { children: ReactNode }) {
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={children} data-testid="resource-query-hint" />;
}

/**
 * A load that failed: "Failed to load...", the server's reason, and a retry. A refused query (400: a
 * filter is missing or wrong) shows the server's message alone: nothing failed, the question was incomplete.
 */
export function LoadError({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation();
  const msg = useMsg();
  const errText = useErrorText();
  const refused = error instanceof ApiFailure && error.status === 400;
  const details = refused && Array.isArray(error.details) ? (error.details as { field?: unknown; message?: unknown }[]) : [];
  const which = details
    .filter((d) => typeof d?.field === 'string')
    .map((d) => (typeof d.message === 'string' && d.message ? `${String(d.field)}: ${d.message}` : String(d.field)))
    .join('; ');
  return (
    <Result
      status={refused ? 'info' : 'warning'}
      title={refused ? errText(error) : msg('LOAD_FAILED')}
      subTitle={refused ? which || undefined : errText(error)}
      extra={
        <Button type="primary" onClick={onRetry} data-testid="resource-retry">
          {t('action.retry')}
        </Button>
      }
    />
  );
}
