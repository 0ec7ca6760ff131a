import { useState } from 'react';
import { HistoryOutlined } from '@ant-design/icons';
import { Alert, Button, Drawer, List, Skeleton, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { PendingChangeRow, SettingHistoryRow, SettingNamesAnswer } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { api, type ListAnswer } from '../kit/api';
import { useAccess } from '../kit/access';
import { useDialogWidth } from '../kit/dialog';
import { ChangeLines, historyLines } from './ChangeLines';
import { formatDateTime } from './datetime';
import { LoadError } from './StateViews';

/** The settings named in the history and the pending changes (the filters' choices). */
export function useSettingNames(): string[] {
  const q = useQuery({ queryKey: ['setting_names'], queryFn: () => api.get<SettingNamesAnswer>('/system/setting_names'), staleTime: 60_000 });
  return q.data?.items ?? [];
}

/**
 * "History" on a settings screen (issue 22): the last changes of this setting, who asked, who approved,
 * before → after; the whole history is under System › Settings history. Shown to holders of that page.
 */
export function SettingHistoryButton({ setting }: { setting: string }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const [open, setOpen] = useState(false);
  const width = useDialogWidth(640);
  const q = useQuery({
    queryKey: ['setting_history', 'card', setting],
    queryFn: () => api.get<ListAnswer<SettingHistoryRow>>('/system/setting_history', { setting, page_size: 20 }),
    enabled: open,
  });
  if (!can('setting_history')) return null;
  return (
    <>
      <Button icon={<HistoryOutlined />} onClick={() => setOpen(true)} data-testid="setting-history">
        {t('duties.history')}
      </Button>
      <Drawer open={open} onClose={() => setOpen(false)} width={width} title={t('duties.historyOf', { setting: t(`duties.setting.${setting}`, { defaultValue: setting }) })}>
        {q.isError ? (
          <LoadError error={q.error} onRetry={() => void q.refetch()} />
        ) : !q.data ? (
          <Skeleton active />
        ) : (
          <List
            data-testid="setting-history-list"
            dataSource={q.data.items}
            locale={{ emptyText: t('duties.noHistory') }}
            renderItem={(h) => (
              <List.Item key={h.id}>
                <List.Item.Meta
                  title={
                    <Typography.Text>
                      {formatDateTime(h.created_at)} · {h.account ?? '-'}
                      {h.approved_account ? ` · ${t('duties.approvedBy', { account: h.approved_account })}` : ''}
                    </Typography.Text>
                  }
                  description={<ChangeLines rows={historyLines(h.before, h.after)} setting={h.setting} />}
                />
              </List.Item>
            )}
          />
        )}
      </Drawer>
    </>
  );
}

/** On a settings screen: the changes of this setting that wait for a second admin, with a link to them. */
export function PendingChangesNotice({ setting }: { setting: string }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const q = useQuery({
    queryKey: ['pending_change', 'card', setting],
    queryFn: () => api.get<ListAnswer<PendingChangeRow>>('/system/pending_changes', { setting, status: 'pending', page_size: 5 }),
    enabled: can('pending_change'),
  });
  const n = q.data?.total ?? 0;
  if (!n) return null;
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 12 }}
      data-testid="setting-pending"
      message={t('duties.waiting', { count: n })}
      action={<a href="#/customer/pending_change">{t('duties.openPending')}</a>}
    />
  );
}
