import { Modal, Skeleton, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { jackpotShareResource, type JackpotShareDetail } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useDialogWidth } from '../../kit/dialog';
import { LoadError, RecordView, type ResourceView } from '../../resources';
import { jackpotView, MatchesTable } from './shared';

const useShare = (code: string | null) =>
  useQuery({ queryKey: ['jackpot-share', code], queryFn: () => api.get<JackpotShareDetail>(`/jackpot/shares/${encodeURIComponent(code!)}`), enabled: !!code, retry: false });

/** The shared slip's 13 picks (GET /jackpot/shares/:code), under the drawer's fields. */
export function ShareMatches({ code }: { code: string }) {
  const q = useShare(code);
  if (q.isError && !q.data) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <Skeleton active />;
  return (
    <div style={{ marginTop: 16 }}>
      <MatchesTable matches={q.data.matches} testId="share-matches" />
    </div>
  );
}

/** A shared slip opened by its code: its figures and picks ("No shared bet slip has this code" otherwise). */
export function ShareDialog({ code, onClose }: { code: string | null; onClose(): void }) {
  const { t } = useTranslation();
  const width = useDialogWidth(900);
  const q = useShare(code);
  const def = jackpotView(jackpotShareResource as ResourceView);
  return (
    <Modal open={!!code} title={t('jackpot.share.title', { code: code ?? '' })} onCancel={onClose} footer={null} width={width} destroyOnHidden data-testid="share-dialog">
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : !q.data ? (
        <Skeleton active />
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <RecordView fields={def.fields} record={q.data.share} column={2} />
          <MatchesTable matches={q.data.matches} testId="share-matches" />
        </Space>
      )}
    </Modal>
  );
}
