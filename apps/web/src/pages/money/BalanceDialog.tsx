import { useState } from 'react';
import { ArrowRightOutlined } from '@ant-design/icons';
import { Alert, Button, Descriptions, Flex, Form, Input, Modal, Typography } from 'antd';
import { userResource } from '@dau/contract/ui';
import { formatTsh, parseTshToCents } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api, newIdempotencyKey } from '../../kit/api';
import { useDialogWidth } from '../../kit/dialog';
import { useMsg } from '../../kit/messages';
import { TshInput, tshRule, useApiMutation, useLocale, useResourceRecord, type Row } from '../../resources';
import { BETTOR_LISTS, BILL_LISTS } from './shared';

export type Account = 'cash' | 'credit';

/** Whose balance the dialog edits; kept while the dialog fades out (`open` false). */
export interface BalanceTarget {
  row?: Row;
  account: Account;
  open: boolean;
}

interface Values {
  amount?: string;
  remark?: string;
}

const REMARK_MAX = 200;

/**
 * Edit balance / edit activity credit of a bettor (spec §3 User): an amount in TSh with its sign (a positive
 * value adds, a negative one subtracts), a required remark, the current and resulting balance before the
 * operator confirms. Pessimistic: the lists change when the server has answered. One Idempotency-Key per
 * opened dialog: a double click or a retry after a lost answer moves the money once.
 */
export function BalanceDialog({ target, onClose }: { target: BalanceTarget; onClose(): void }) {
  const { t } = useTranslation();
  const width = useDialogWidth(560);
  const credit = target.account === 'credit';
  return (
    <Modal
      open={target.open}
      title={t(credit ? 'money.balance.creditTitle' : 'money.balance.title', { phone: String(target.row?.phone ?? '') })}
      width={width}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      footer={null}
    >
      {target.row && <BalanceForm row={target.row} account={target.account} onDone={onClose} />}
    </Modal>
  );
}

function BalanceForm({ row, account, onDone }: { row: Row; account: Account; onDone(): void }) {
  const { t } = useTranslation();
  const msg = useMsg();
  const locale = useLocale();
  const [form] = Form.useForm<Values>();
  // Mounted once per opened dialog (destroyOnHidden): one key for every submit of this dialog.
  const [key] = useState(newIdempotencyKey);
  const id = row.id as number;
  const fresh = useResourceRecord(userResource, id, row);
  const bettor = fresh.data ?? row;
  const current = Number((account === 'cash' ? bettor.balance : bettor.credit_money) ?? 0);
  const typed = Form.useWatch('amount', form);
  const cents = typeof typed === 'string' ? parseTshToCents(typed) : null;
  const result = cents === null || cents === 0 ? null : current + cents;

  const save = useApiMutation(
    (body: { amount: number; remark: string }) =>
      api.post<{ balance: number }>(`/money/bettors/${id}/${account === 'cash' ? 'balance' : 'credit'}`, body, { headers: { 'Idempotency-Key': key } }),
    { invalidate: [...BETTOR_LISTS, ...BILL_LISTS] },
  );

  const submit = async (values: Values) => {
    const amount = parseTshToCents(values.amount ?? '');
    if (amount === null) return;
    try {
      await save.mutateAsync({ amount, remark: (values.remark ?? '').trim() });
      onDone();
    } catch {
      /* the toast shows the server's message (e.g. "Insufficient balance"); the dialog stays open */
    }
  };

  return (
    <Form form={form} layout="vertical" name={`balance-${account}-${id}`} onFinish={(v) => void submit(v)} requiredMark disabled={save.isPending}>
      <Descriptions
        size="small"
        bordered
        column={1}
        style={{ marginBottom: 16 }}
        items={[
          { key: 'user', label: t('money.balance.user'), children: `${String(bettor.phone ?? '')}${bettor.name ? ` · ${String(bettor.name)}` : ''} (ID ${id})` },
          {
            key: 'current',
            label: t(account === 'cash' ? 'money.balance.currentCash' : 'money.balance.currentCredit'),
            children: (
              <Typography.Text strong data-testid="balance-current">
                {formatTsh(current, locale)}
              </Typography.Text>
            ),
          },
        ]}
      />
      <Form.Item
        name="amount"
        label={t('money.balance.amount')}
        extra={t('money.balance.amountHelp')}
        validateFirst
        rules={[
          { required: true, whitespace: true, message: t('form.required', { label: t('money.balance.amount') }) },
          tshRule(t, locale, {
            allowZero: false,
            check: (c) => (current + c < 0 ? msg('INSUFFICIENT_BALANCE') : null),
          }),
        ]}
      >
        <TshInput placeholder={t('money.balance.amountPlaceholder')} data-testid="balance-amount" autoFocus />
      </Form.Item>
      <Form.Item
        name="remark"
        label={t('field.remark')}
        rules={[
          { required: true, whitespace: true, message: t('money.balance.remarkRequired') },
          { max: REMARK_MAX, message: t('form.maxLength', { max: REMARK_MAX }) },
        ]}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} maxLength={REMARK_MAX} showCount placeholder={t('money.balance.remarkPlaceholder')} data-testid="balance-remark" />
      </Form.Item>
      <Alert
        type={result !== null && result < 0 ? 'error' : cents !== null && cents < 0 ? 'warning' : 'info'}
        showIcon
        style={{ marginBottom: 16 }}
        title={
          <Flex gap={8} align="center" wrap data-testid="balance-preview">
            <span>{formatTsh(current, locale)}</span>
            <ArrowRightOutlined />
            <Typography.Text strong data-testid="balance-result">
              {result === null ? '—' : formatTsh(result, locale)}
            </Typography.Text>
            {result !== null && cents !== null && (
              <Typography.Text type={cents < 0 ? 'danger' : 'success'}>
                ({cents > 0 ? '+' : ''}
                {formatTsh(cents, locale)})
              </Typography.Text>
            )}
          </Flex>
        }
        description={t('money.balance.resultHint')}
      />
      <Flex justify="flex-end" gap={8}>
        <Button onClick={onDone} disabled={false}>
          {t('action.cancel')}
        </Button>
        <Button type="primary" htmlType="submit" danger={cents !== null && cents < 0} loading={save.isPending} data-testid="balance-submit">
          {t(cents !== null && cents < 0 ? 'money.balance.confirmSubtract' : 'money.balance.confirmAdd')}
        </Button>
      </Flex>
    </Form>
  );
}
