import { useMemo, useState } from 'react';
import { EyeOutlined } from '@ant-design/icons';
import { Alert } from 'antd';
import { casinoLargeWinResource } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ActionButton, FormModal, ResourcePage, useApiMutation, type FieldView, type ResourceView, type Row } from '../../resources';
import { useTsh } from './shared';

const PAGE = 'casino_large_win';
const NOTE_FIELDS: FieldView[] = [{ key: 'note', type: 'textarea', label: 'casino.field.review_note', editable: true, required: true, maxLength: 500 }];

/**
 * Casino › Large wins (issue 22): rounds whose wins went far beyond their bets (the game's multiple, 5,000×
 * by default) or reached the settings' amount. They were paid (the provider's word stands); a casino
 * operator looks at each and records what they found.
 */
export default function LargeWinPage() {
  const { t } = useTranslation();
  const tsh = useTsh();
  const [reviewing, setReviewing] = useState<Row | null>(null);
  const view = useMemo<ResourceView>(
    () => ({
      ...casinoLargeWinResource,
      fields: casinoLargeWinResource.fields.map((f): FieldView => {
        if (f.key === 'reason') return { ...f, keep: true, options: ['multiple', 'amount'].map((v) => ({ value: v, label: t(`casino.largeWin.reason.${v}`) })) };
        if (f.key === 'reviewed') return { ...f, keep: true, options: ['yes', 'no'].map((v) => ({ value: v, label: t(`casino.largeWin.reviewed.${v}`) })) };
        if (f.key === 'win_total') return { ...f, keep: true };
        return f;
      }),
    }),
    [t],
  );
  const review = useApiMutation(({ id, note }: { id: unknown; note: string }) => api.post(`/casino/large_wins/${String(id)}/review`, { note }), { invalidate: [[PAGE]] });
  return (
    <ResourcePage
      def={view}
      intro={<Alert type="info" showIcon message={t('casino.largeWin.intro')} style={{ marginBottom: 12 }} />}
      rowActions={(r) =>
        r.reviewed === 'no' ? (
          <ActionButton action="review" page={PAGE} type="text" size="small" compact icon={<EyeOutlined />} testId={`large-win-review-${String(r.round_id)}`} onClick={() => setReviewing(r)}>
            {t('button.review')}
          </ActionButton>
        ) : null
      }
    >
      <FormModal
        open={!!reviewing}
        title={t('casino.largeWin.reviewTitle', { round: String(reviewing?.round_ref ?? reviewing?.round_id ?? ''), win: tsh(Number(reviewing?.win_total ?? 0)) })}
        mode="create"
        maxWidth={560}
        fields={NOTE_FIELDS}
        onClose={() => setReviewing(null)}
        onSubmit={(body) => review.mutateAsync({ id: reviewing?.round_id, note: String(body.note ?? '') }).then(() => setReviewing(null))}
      />
    </ResourcePage>
  );
}
