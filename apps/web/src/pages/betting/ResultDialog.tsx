import { useEffect, useState, type ReactNode } from 'react';
import { ArrowRightOutlined } from '@ant-design/icons';
import { Alert, App, Button, Form, Input, Modal, Select, Space, Table, Typography } from 'antd';
import { OUTCOME_STATUS } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useMsg } from '../../kit/messages';
import { enumText, useApiMutation, useLocale } from '../../resources';
import { EnumTag, ORDER_LISTS, useSignedTsh, useTsh } from './shared';

/** The results an operator may set (server RESULT_STATUSES): won, lost, half won, half lost, void, cancelled, admin-cancelled. */
export const RESULT_CHOICES = [
  OUTCOME_STATUS.won, OUTCOME_STATUS.lost, OUTCOME_STATUS.half_won, OUTCOME_STATUS.half_lost, OUTCOME_STATUS.void, OUTCOME_STATUS.cancelled, OUTCOME_STATUS.admin_cancelled,
];

const REASON_MAX = 500;

interface Money {
  status: number;
  payout: number;
  tax: number;
  bonus: number;
}

export interface OrderChange {
  order_id: number;
  order_no: string;
  bettor_id: number;
  before: Money;
  after: Money;
  balance_delta: { cash: number; credit: number };
}

export interface ChangeAnswer {
  preview: boolean;
  changes: OrderChange[];
  totals: { orders: number; cash: number; credit: number };
}

/** What the dialog changes: one line's result, a selection's result across orders, or the whole order (cancel). */
export type Subject =
  | { kind: 'line'; orderId: number; lineId: number; selection: string }
  | { kind: 'match'; eventId: string; marketKey: string; outcomeId: string; selection: string }
  | { kind: 'cancel'; orderId: number; orderNo: string };

function post(subject: Subject, body: { outcome_status?: number; reason: string; preview: boolean }) {
  switch (subject.kind) {
    case 'line':
      return api.post<ChangeAnswer>(`/betting/orders/${subject.orderId}/lines/${subject.lineId}/result`, body);
    case 'match':
      return api.post<ChangeAnswer>(`/betting/matches/${encodeURIComponent(subject.eventId)}/result`, { ...body, market_key: subject.marketKey, outcome_id: subject.outcomeId });
    case 'cancel':
      return api.post<ChangeAnswer>(`/betting/orders/${subject.orderId}/cancel`, { reason: body.reason, preview: body.preview });
  }
}

/** "before → after", the after part emphasised when it differs. */
function Moved({ before, after, render }: { before: number; after: number; render: (v: number) => ReactNode }) {
  if (before === after) return <>{render(after)}</>;
  return (
    <Space size={4} wrap={false}>
      <Typography.Text type="secondary">{render(before)}</Typography.Text>
      <ArrowRightOutlined style={{ fontSize: 10 }} />
      <Typography.Text strong>{render(after)}</Typography.Text>
    </Space>
  );
}

/** Each affected order with its status, payout, tax, bonus and balance change, before → after, and the totals. */
export function ChangePreview({ answer }: { answer: ChangeAnswer }) {
  const { t } = useTranslation();
  const tsh = useTsh();
  const signed = useSignedTsh();
  if (!answer.changes.length) return <Alert type="info" showIcon message={t('betting.change.noChange')} data-testid="change-preview-empty" />;
  return (
    <div data-testid="change-preview">
      <Typography.Paragraph>{t('betting.change.previewIntro')}</Typography.Paragraph>
      <Table<OrderChange>
        size="small"
        rowKey="order_id"
        pagination={false}
        scroll={answer.changes.length > 8 ? { x: 'max-content', y: 360 } : { x: 'max-content' }}
        dataSource={answer.changes}
        columns={[
          { key: 'order', title: t('betting.change.order'), dataIndex: 'order_no' },
          { key: 'status', title: t('betting.change.status'), render: (_, c) => <Moved before={c.before.status} after={c.after.status} render={(v) => <EnumTag name="order_status" value={v} />} /> },
          { key: 'payout', title: t('betting.change.payout'), align: 'right', render: (_, c) => <span data-testid={`preview-payout-${c.order_id}`}><Moved before={c.before.payout} after={c.after.payout} render={tsh} /></span> },
          { key: 'tax', title: t('betting.change.tax'), align: 'right', render: (_, c) => <Moved before={c.before.tax} after={c.after.tax} render={tsh} /> },
          { key: 'bonus', title: t('betting.change.bonus'), align: 'right', render: (_, c) => <Moved before={c.before.bonus} after={c.after.bonus} render={tsh} /> },
          {
            key: 'delta',
            title: t('betting.change.delta'),
            align: 'right',
            render: (_, c) => (
              <Typography.Text type={c.balance_delta.cash < 0 ? 'danger' : c.balance_delta.cash > 0 ? 'success' : undefined}>
                {signed(c.balance_delta.cash)}
                {c.balance_delta.credit ? ` / ${signed(c.balance_delta.credit)}` : ''}
              </Typography.Text>
            ),
          },
        ]}
      />
      <Typography.Paragraph strong style={{ marginTop: 12, marginBottom: 0 }} data-testid="change-preview-totals">
        {t('betting.change.totals', { orders: answer.totals.orders, cash: signed(answer.totals.cash), credit: signed(answer.totals.credit) })}
      </Typography.Paragraph>
    </div>
  );
}

/**
 * Change a line's result, a selection's result across every order (match result), or cancel the order.
 * Two steps: the form (result and a required reason) asks the server for a preview (`preview: true`,
 * nothing changes); Confirm sends the same request for real. The server's refusals show as its message.
 */
export function ResultDialog({ subject, open, onClose, onDone }: { subject: Subject | null; open: boolean; onClose(): void; onDone?(answer: ChangeAnswer): void }) {
  const { t } = useTranslation();
  const msg = useMsg();
  const locale = useLocale();
  // The success toast: the mutation's own is off so that it can say what changed.
  const { message: toast } = App.useApp();
  const [form] = Form.useForm<{ outcome_status?: number; reason: string }>();
  const [preview, setPreview] = useState<ChangeAnswer | null>(null);
  const [sent, setSent] = useState<{ outcome_status?: number; reason: string } | null>(null);
  const ask = useApiMutation((body: { outcome_status?: number; reason: string }) => post(subject!, { ...body, preview: true }), { success: false });
  const doneText = (a: ChangeAnswer) => (subject?.kind === 'cancel' ? t('betting.cancel.done') : t('betting.change.done', { n: a.changes.length }));
  const confirm = useApiMutation((body: { outcome_status?: number; reason: string }) => post(subject!, { ...body, preview: false }), {
    success: false,
    invalidate: ORDER_LISTS,
    onSuccess: (a) => {
      onDone?.(a);
      onClose();
    },
  });

  useEffect(() => {
    if (open) {
      setPreview(null);
      setSent(null);
      form.resetFields();
    }
  }, [open, form]);

  const cancel = subject?.kind === 'cancel';
  const title = !subject
    ? ''
    : subject.kind === 'cancel'
      ? t('betting.cancel.title', { orderNo: subject.orderNo })
      : t(subject.kind === 'match' ? 'betting.change.matchTitle' : 'betting.change.title', { selection: subject.selection });
  const hint = !subject ? '' : subject.kind === 'cancel' ? t('betting.cancel.hint') : subject.kind === 'match' ? t('betting.change.matchHint') : t('betting.change.lineHint');

  const toPreview = async () => {
    // An invalid form shows its messages under the fields.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    const body = { ...(cancel ? {} : { outcome_status: v.outcome_status }), reason: v.reason.trim() };
    const answer = await ask.mutateAsync(body).catch(() => null);
    if (answer) {
      setSent(body);
      setPreview(answer);
    }
  };

  const footer = preview ? (
    <Space>
      <Button onClick={() => setPreview(null)} data-testid="change-back">
        {t('betting.change.back')}
      </Button>
      <Button
        type="primary"
        danger={cancel}
        loading={confirm.isPending}
        disabled={!preview.changes.length && !cancel}
        data-testid="change-confirm"
        onClick={() => void confirm.mutateAsync(sent!).then((a) => void toast.success(doneText(a))).catch(() => undefined)}
      >
        {cancel ? t('betting.cancel.confirm') : t('betting.change.confirm')}
      </Button>
    </Space>
  ) : (
    <Space>
      <Button onClick={onClose}>{t('common.cancel')}</Button>
      <Button type="primary" loading={ask.isPending} onClick={() => void toPreview()} data-testid="change-preview-submit">
        {t('betting.change.preview')}
      </Button>
    </Space>
  );

  return (
    <Modal open={open} title={title} onCancel={onClose} footer={footer} destroyOnHidden width={preview ? 1000 : 560} data-testid="change-dialog">
      <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>
      <div style={{ display: preview ? 'none' : undefined }}>
        <Form form={form} layout="vertical" requiredMark>
          {!cancel && (
            <Form.Item name="outcome_status" label={t('betting.change.result')} rules={[{ required: true, message: msg('RESULT_REQUIRED') }]}>
              <Select
                data-testid="change-result"
                placeholder={t('betting.change.result')}
                options={RESULT_CHOICES.map((v) => ({ value: v, label: enumText('outcome_status', v, locale) }))}
              />
            </Form.Item>
          )}
          <Form.Item name="reason" label={t('betting.change.reason')} rules={[{ required: true, whitespace: true, message: msg('REASON_REQUIRED') }]}>
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 6 }} maxLength={REASON_MAX} showCount placeholder={t('betting.change.reasonPlaceholder')} data-testid="change-reason" />
          </Form.Item>
        </Form>
      </div>
      {preview && <ChangePreview answer={preview} />}
    </Modal>
  );
}
