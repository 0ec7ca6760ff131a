import { DownOutlined, DownloadOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Space } from 'antd';
import dayjs from '../kit/dayjs';
import { EXPORT_FORMAT } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { useAccess, useCurrentPage } from '../kit/access';
import { api } from '../kit/api';
import { ActionButton } from './ActionButton';
import { useFeedback } from './feedback';
import { useApiMutation } from './data';

export interface ExportButtonProps {
  /** The permission page (`page:export`); default the current page. */
  page?: string;
  api: string;
  name: string;
  /** The list's current filters and sort. */
  query: Record<string, string>;
  /** The list's name for a background export (POST /exports); without it, `{api}/export` is downloaded as CSV. */
  exportType?: string;
  /** Column headers of the file by column key, in the operator's language (the list's own column labels). */
  labels?: Record<string, string>;
  disabled?: boolean;
}

/** The export of a list with its current filters and sort (permission `export`): a CSV download, or a background job. */
export function ExportButton({ exportType, labels, ...props }: ExportButtonProps) {
  return exportType ? <AsyncExportButton exportType={exportType} labels={labels} {...props} /> : <DownloadButton labels={labels} {...props} />;
}

/** Downloads `{api}/export` as a CSV file, headed by the list's column labels (`labels`, a JSON object in the query). */
function DownloadButton({ page, api: path, name, query, labels, disabled }: Omit<ExportButtonProps, 'exportType'>) {
  const { ok, fail } = useFeedback();
  const run = async () => {
    try {
      const withLabels = labels ? { ...query, labels: JSON.stringify(labels) } : query;
      await api.download(`${path}/export`, withLabels, `${name}-${dayjs().format('YYYYMMDD-HHmmss')}.csv`);
      ok();
    } catch (err) {
      fail(err);
    }
  };
  return <ActionButton action="export" page={page} icon={<DownloadOutlined />} onClick={run} disabled={disabled} testId="resource-export" />;
}

const JOBS_PAGE = 'async_operations';

/**
 * Queues a background export (CSV or XLSX) of the list as filtered now; a toast says it has started, with
 * a link to the export jobs where the file can be downloaded when it is ready (a live notice says so too).
 */
function AsyncExportButton({ page, query, exportType, labels, disabled }: Omit<ExportButtonProps, 'exportType'> & { exportType: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { can, hasScreen } = useAccess();
  const current = useCurrentPage();
  const start = useApiMutation((format: number) => api.post('/exports', { type: exportType, format, params: query, ...(labels ? { labels } : {}) }), {
    success: false,
    invalidate: [[JOBS_PAGE]],
    onSuccess: () => {
      const link = can(JOBS_PAGE) && hasScreen(JOBS_PAGE);
      void message.success({
        key: 'export-started',
        duration: 6,
        content: (
          <span data-testid="export-started">
            {t('exportJob.started')}{' '}
            {link && (
              <a href={`#/customer/${JOBS_PAGE}`} onClick={() => message.destroy('export-started')} data-testid="export-jobs-link">
                {t('exportJob.viewJobs')}
              </a>
            )}
          </span>
        ),
      });
    },
  });
  if (!can(page ?? current, 'export')) return null;
  const formats = [
    { key: String(EXPORT_FORMAT.csv), label: <span data-testid="export-async-csv">{t('exportJob.csv')}</span> },
    { key: String(EXPORT_FORMAT.xlsx), label: <span data-testid="export-async-xlsx">{t('exportJob.xlsx')}</span> },
  ];
  return (
    <Dropdown
      trigger={['click']}
      disabled={disabled || start.isPending}
      menu={{ items: formats, onClick: ({ key }) => void start.mutateAsync(Number(key)).catch(() => undefined) }}
    >
      <Button icon={<DownloadOutlined />} loading={start.isPending} data-testid="export-async">
        <Space size={4}>
          {t('button.export')}
          <DownOutlined style={{ fontSize: 10 }} />
        </Space>
      </Button>
    </Dropdown>
  );
}
