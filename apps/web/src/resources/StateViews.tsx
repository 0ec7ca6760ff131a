import { Button, Empty, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useErrorText, useMsg } from '../app/messages';

/** "No data" in the operator's language. */
export function NoData() {
  const msg = useMsg();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={msg('NO_DATA')} />;
}

/** A load that failed: "Failed to load...", the server's reason, and a retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry(): void }) {
  const { t } = useTranslation();
  const msg = useMsg();
  const errText = useErrorText();
  return (
    <Result
      status="warning"
      title={msg('LOAD_FAILED')}
      subTitle={errText(error)}
      extra={
        <Button type="primary" onClick={onRetry} data-testid="resource-retry">
          {t('action.retry')}
        </Button>
      }
    />
  );
}
