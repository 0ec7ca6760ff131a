import { useMemo } from 'react';
import { DownloadOutlined, SyncOutlined } from '@ant-design/icons';
import { Tag, Typography } from 'antd';
import { asyncOperationsResource, MONEY_RESOURCES } from '@dau/contract/ui';
import { ASYNC_OPERATION_STATUS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api, type ListAnswer } from '../../kit/api';
import { ActionButton, Blank, enumColor, enumText, ResourcePage, useFeedback, useLocale, type ResourceView, type Row } from '../../resources';

const PAGE = 'async_operations';
const POLL_MS = 3_000;
const inProgress = (r: Row) => r.status === ASYNC_OPERATION_STATUS.in_progress;

/** The lists that export in the background, by their export name. */
const EXPORTABLE = MONEY_RESOURCES.filter((r) => r.exportType);

/**
 * System › Async operations: the background exports (who asked, which list, format, status, rows, error),
 * downloaded when completed (only the asker or a super admin) and deleted. The list reloads every few
 * seconds while a job is in progress; a live notice also says when one is done.
 */
export default function AsyncOperationsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { ok, fail } = useFeedback();

  const def = useMemo<ResourceView>(() => {
    const listName = (type: unknown) => {
      const r = EXPORTABLE.find((x) => x.exportType === type);
      return r?.title ? t(r.title) : String(type ?? '');
    };
    return {
      ...asyncOperationsResource,
      fields: asyncOperationsResource.fields.map((f) => {
        switch (f.key) {
          case 'type':
            return {
              ...f,
              options: EXPORTABLE.map((r) => ({ value: r.exportType as string, label: listName(r.exportType) })),
              render: (v: unknown) => (
                <span>
                  {listName(v)} <Typography.Text type="secondary" style={{ fontSize: 12 }}>({String(v)})</Typography.Text>
                </span>
              ),
            };
          case 'status':
            return {
              ...f,
              render: (v: unknown) => (
                <Tag color={enumColor('async_operation_status', v)} icon={v === ASYNC_OPERATION_STATUS.in_progress ? <SyncOutlined spin /> : undefined}>
                  {enumText('async_operation_status', v, locale)}
                </Tag>
              ),
            };
          case 'error_message':
            return {
              ...f,
              render: (v: unknown) =>
                v ? (
                  <Typography.Text type="danger" ellipsis={{ tooltip: String(v) }} style={{ maxWidth: 280 }}>
                    {String(v)}
                  </Typography.Text>
                ) : (
                  <Blank />
                ),
            };
          default:
            return f;
        }
      }),
    };
  }, [t, locale]);

  const download = async (row: Row) => {
    try {
      const url = String(row.download_url).replace(/^\/api\/v1/, '');
      const ext = row.format === 2 ? 'xlsx' : 'csv';
      await api.download(url, undefined, String(row.file_name ?? `${String(row.type)}-${String(row.id)}.${ext}`));
      ok();
    } catch (err) {
      fail(err);
    }
  };

  return (
    <ResourcePage
      def={def}
      pollInterval={(answer: ListAnswer<Row> | undefined) => (answer?.items.some(inProgress) ? POLL_MS : false)}
      rowActions={(row) =>
        row.download_url ? (
          <ActionButton
            action="download"
            page={PAGE}
            type="text"
            size="small"
            compact
            icon={<DownloadOutlined />}
            testId={`async-download-${String(row.id)}`}
            onClick={() => download(row)}
          />
        ) : null
      }
    />
  );
}
