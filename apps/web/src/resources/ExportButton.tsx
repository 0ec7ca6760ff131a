import { DownloadOutlined } from '@ant-design/icons';
import dayjs from 'dayjs';
import { api } from '../app/api';
import { ActionButton } from './ActionButton';
import { useFeedback } from './feedback';

/** Downloads `{api}/export` with the list's current filters and sort as a CSV file (permission `export`). */
export function ExportButton({ page, api: path, name, query }: { page?: string; api: string; name: string; query: Record<string, string> }) {
  const { ok, fail } = useFeedback();
  const run = async () => {
    try {
      await api.download(`${path}/export`, query, `${name}-${dayjs().format('YYYYMMDD-HHmmss')}.csv`);
      ok();
    } catch (err) {
      fail(err);
    }
  };
  return <ActionButton action="export" page={page} icon={<DownloadOutlined />} onClick={run} testId="resource-export" />;
}
