import type { ReactNode } from 'react';
import { ReloadOutlined } from '@ant-design/icons';
import { Alert, Button, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../resources';

/** The header of an operations screen: the menu's title, the screen's description and a refresh button. */
export function OpsHeader({ page, onRefresh, busy, extra }: { page: string; onRefresh: () => void; busy?: boolean; extra?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <PageHeader
      title={t(`menu.${page}`)}
      description={t(`operations.describe.${page}`)}
      extra={
        <>
          {extra}
          <Button icon={<ReloadOutlined />} onClick={onRefresh} loading={busy} data-testid="ops-refresh">
            {t('operations.refresh')}
          </Button>
        </>
      }
    />
  );
}

/** What the embedded database cannot show (the server's message, in the admin's language). */
export function Unsupported({ text }: { text: string | null | undefined }) {
  const { t } = useTranslation();
  return <Alert type="info" showIcon title={t('operations.unsupported')} description={text} data-testid="ops-unsupported" style={{ marginBottom: 16 }} />;
}

/** Bytes as MB with one decimal. */
export const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** A query's text: monospace, one line with the whole text in a tooltip. */
export function SqlText({ sql, width = 360 }: { sql: string | null | undefined; width?: number }) {
  if (!sql) return <Typography.Text type="secondary">—</Typography.Text>;
  return (
    <Typography.Text code ellipsis={{ tooltip: sql }} style={{ maxWidth: width, fontSize: 12 }}>
      {sql}
    </Typography.Text>
  );
}

const STATE_COLOR: Record<string, string> = {
  up: 'green', down: 'red', stopped: 'default',
  awaiting_approval: 'gold', queued: 'blue', running: 'processing', succeeded: 'green', failed: 'red', interrupted: 'orange',
};

export function StateTag({ state, text, testId }: { state: string; text: string; testId?: string }) {
  return (
    <Tag color={STATE_COLOR[state] ?? 'default'} data-testid={testId} data-state={state}>
      {text}
    </Tag>
  );
}
