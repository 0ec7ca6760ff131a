import { useState } from 'react';
import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import type { BulkAnswer } from '@dau/contract/ui';
import { WITHDRAWAL_STATUS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ActionButton, BulkBar, enumText, FormModal, useBulkRun, useBulkWords, useLocale, type BulkRow, type FieldView, type Row } from '../../resources';
import { PAYMENT_LISTS } from './payments';

const PAGE = 'withdraw_list';
/** A withdrawal a reviewer may approve or refuse (pending review, or awaiting its second approval). */
export const inReview = (r: Row) => r.status === WITHDRAWAL_STATUS.pending_review || r.status === WITHDRAWAL_STATUS.awaiting_second_approval;

/**
 * The withdrawal list's bulk review (issue 29): the selected withdrawals under review, approved (one
 * confirmation naming the count and the total) or refused with one reason (the reason dialog names them),
 * each checked by the server as a single approval or refusal; then every row's outcome.
 */
export function WithdrawBulk({ selected, clearSelection, reasonField }: { selected: Row[]; clearSelection(): void; reasonField: FieldView[] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { run, modal } = useBulkRun();
  const [refusing, setRefusing] = useState(false);
  const rows: BulkRow[] = selected.filter(inReview).map((r) => ({ id: Number(r.id), label: String(r.serial_number ?? r.id), amount: Number(r.amount) }));
  const words = useBulkWords()(rows);
  const status = (o: { status?: number }) => enumText('withdrawal_status', o.status, locale);
  const approve = () =>
    run({
      title: t('money.bulk.approvedTitle'),
      rows,
      call: (ids) => api.post<BulkAnswer>('/money/withdrawals/approve', { ids }),
      okText: status,
      invalidate: PAYMENT_LISTS,
    }).then(clearSelection);
  const refuse = async (reason: string) => {
    await run({
      title: t('money.bulk.refusedTitle'),
      rows,
      call: (ids) => api.post<BulkAnswer>('/money/withdrawals/refuse', { ids, reason }),
      okText: status,
      invalidate: PAYMENT_LISTS,
    });
    clearSelection();
  };
  return (
    <>
      <BulkBar rows={rows} onClear={clearSelection}>
        <ActionButton action="approve" page={PAGE} type="primary" size="small" icon={<CheckOutlined />} testId="bulk-approve" confirm={t('money.bulk.confirmApprove', words)} onClick={approve}>
          {t('money.bulk.approve')}
        </ActionButton>
        <ActionButton action="refuse" page={PAGE} danger size="small" icon={<CloseOutlined />} testId="bulk-refuse" onClick={() => setRefusing(true)}>
          {t('money.bulk.refuse')}
        </ActionButton>
      </BulkBar>
      <FormModal
        open={refusing}
        title={t('money.bulk.refuseTitle', words)}
        fields={reasonField}
        mode="create"
        maxWidth={560}
        intro={<Typography.Paragraph data-testid="bulk-refuse-summary">{t('money.bulk.refuseHint', words)}</Typography.Paragraph>}
        onClose={() => setRefusing(false)}
        onSubmit={(body) => refuse(String(body.reason ?? '').trim())}
      />
      {modal}
    </>
  );
}
