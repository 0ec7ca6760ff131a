import { useMemo, useState } from 'react';
import { DeleteOutlined, SwapOutlined } from '@ant-design/icons';
import { App, Descriptions, Flex, Tag, Tooltip, Typography } from 'antd';
import type { BettorNetworkAnswer } from '@dau/contract/ui';
import { MOBILE_MONEY_PAY_TYPES, enumLabel } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ActionButton, FormModal, formatDateTime, useApiMutation, type FieldView, type Row } from '../../resources';
import { BETTOR_LISTS } from './shared';
import { PAGE } from './UserActions';

/** A tag colour per pay type (the network's), so the same network reads the same everywhere on the card. */
const PAY_TYPE_COLOR: Record<number, string> = { 3: 'blue', 4: 'red', 6: 'green', 7: 'orange' };

/**
 * The bettor's mobile network in the detail drawer (issue 28, "the number decides the network"): the
 * network the prefix names and its source, the admin's ported record if any, and what a withdrawal to
 * this number may use. For an admin holding the user page's `ported` button: "Ported to…" (a pay type,
 * a remark, a confirmation) and its removal. The answer comes with the bettor's detail (`network`);
 * while only the list's copy of the row shows, nothing is drawn.
 */
export function BettorNetwork({ row }: { row: Row }) {
  const { t, i18n } = useTranslation();
  const { message, modal } = App.useApp();
  const [open, setOpen] = useState(false);
  const net = row.network as BettorNetworkAnswer | undefined;
  const id = row.id as number;
  const phone = String(row.phone ?? '');
  const payTypeName = (p: number) => enumLabel('pay_type', p, i18n.language);

  const mark = useApiMutation((body: { pay_type: number; remark: string }) => api.post<BettorNetworkAnswer>(`/money/bettors/${id}/ported`, body), {
    invalidate: BETTOR_LISTS,
    success: false,
    onSuccess: (a) => void message.success(t('money.network.marked', { phone, payType: payTypeName(a.pay_type ?? 0) })),
  });
  const unmark = useApiMutation(() => api.del<BettorNetworkAnswer>(`/money/bettors/${id}/ported`), {
    invalidate: BETTOR_LISTS,
    success: false,
    onSuccess: () => void message.success(t('money.network.unmarked', { phone })),
  });

  const fields = useMemo<FieldView[]>(
    () => [
      {
        key: 'pay_type', type: 'enum', label: 'money.network.portedTo', editable: true, required: true,
        options: MOBILE_MONEY_PAY_TYPES.filter((p) => p !== net?.pay_type).map((p) => ({ value: p, label: enumLabel('pay_type', p, i18n.language) })),
      },
      { key: 'remark', type: 'textarea', label: 'money.network.remark', editable: true, required: true, maxLength: 200, placeholder: t('money.network.remarkPlaceholder') },
    ],
    [net?.pay_type, i18n.language, t],
  );

  if (!net) return null;

  /** Asks before recording: a wrong mark sends the bettor's money through another network. */
  const submit = (body: Row) =>
    new Promise<void>((resolve, reject) => {
      const payType = Number(body.pay_type);
      modal.confirm({
        title: t('money.network.confirmMark', { phone, payType: payTypeName(payType) }),
        okButtonProps: { 'data-testid': 'ported-confirm-ok' } as never,
        // The confirmation closes either way; a refusal (toast) leaves the form open to correct.
        onOk: () => mark.mutateAsync({ pay_type: payType, remark: String(body.remark ?? '').trim() }).then(() => resolve(), reject),
        onCancel: () => reject(new Error('cancelled')),
      });
    });

  const network = net.network;
  const prefixTag = network ? (
    <Flex gap={4} wrap align="center">
      <Tag color={network.pay_type ? PAY_TYPE_COLOR[network.pay_type] : 'default'} data-testid="bettor-network">
        {network.name}
      </Tag>
      {network.uncertain && (
        <Tooltip title={network.note}>
          <Tag color="gold">{t('money.network.uncertain')}</Tag>
        </Tooltip>
      )}
      <Tooltip title={network.note}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('money.network.source', { source: network.source })}
        </Typography.Text>
      </Tooltip>
    </Flex>
  ) : (
    <Tag color="error" data-testid="bettor-network">
      {t('money.network.unknown', { prefix: phone.slice(3, 5) })}
    </Tag>
  );

  const ported = net.ported;
  const items = [
    { key: 'prefix', label: t('money.network.byPrefix'), children: prefixTag },
    ...(ported
      ? [
          {
            key: 'ported',
            label: t('money.network.portedTo'),
            children: (
              <Flex vertical gap={2}>
                <span>
                  <Tag color={PAY_TYPE_COLOR[ported.pay_type]} data-testid="bettor-ported">
                    {t('money.network.ported', { payType: payTypeName(ported.pay_type) })}
                  </Tag>
                </span>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('money.network.portedBy', { account: ported.marked_by_account ?? `#${ported.marked_by}`, time: formatDateTime(ported.marked_at), remark: ported.remark })}
                </Typography.Text>
              </Flex>
            ),
          },
        ]
      : []),
    {
      key: 'withdrawals',
      label: t('money.network.withdrawals'),
      children:
        net.pay_type !== null ? (
          <Typography.Text data-testid="bettor-network-pays">{t('money.network.paysThrough', { payType: payTypeName(net.pay_type) })}</Typography.Text>
        ) : (
          <Typography.Text type="danger" data-testid="bettor-network-pays">
            {t('money.network.paysNone')}
          </Typography.Text>
        ),
    },
  ];

  return (
    <>
      <Descriptions
        size="small"
        bordered
        column={1}
        style={{ marginBottom: 16 }}
        title={t('money.network.title')}
        extra={
          <Flex gap={8}>
            <ActionButton action="ported" page={PAGE} icon={<SwapOutlined />} testId={`user-ported-${id}`} onClick={() => setOpen(true)}>
              {t('money.network.markAction')}
            </ActionButton>
            {ported && (
              <ActionButton
                action="ported"
                page={PAGE}
                danger
                icon={<DeleteOutlined />}
                testId={`user-unported-${id}`}
                confirm={t('money.network.confirmUnmark', { phone, network: network?.name ?? t('money.network.unknown', { prefix: phone.slice(3, 5) }) })}
                onClick={() => unmark.mutateAsync(undefined)}
              >
                {t('money.network.unmarkAction')}
              </ActionButton>
            )}
          </Flex>
        }
        items={items}
      />
      <FormModal
        open={open}
        title={t('money.network.markTitle', { phone })}
        hint={t('money.network.markHint')}
        mode="create"
        maxWidth={520}
        fields={fields}
        onSubmit={submit}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
