import { useMemo, type ReactNode } from 'react';
import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { QueryKey } from '@tanstack/react-query';
import { useAccess } from '../../kit/access';
import type { Option, ResourceView, Row } from '../../resources';
import { useAdminOptions } from '../system/options';
import { withBillRemark } from './billRemark';

/** Lists that show bettors: refreshed after anything changes a bettor. */
export const BETTOR_LISTS: QueryKey[] = [['user'], ['user_list'], ['online_statistical'], ['cs_user']];
/** Lists that show bills: refreshed after anything moves money. */
export const BILL_LISTS: QueryKey[] = [['bill'], ['bill_credit'], ['admin_bill'], ['cs_bill']];
/** The screens that list bills (their declarations: packages/contract/src/money-resources.ts). */
const BILL_SCREENS = new Set(['bill', 'bill_credit', 'admin_bill', 'cs_bill', 'bill_archive', 'bill_credit_archive']);

/**
 * Admins of my branch as choices (GET /system/administrators/options): only asked for with the
 * administrators page, the server's permission for that list. Empty otherwise.
 */
export function useAgentChoices(): Option[] {
  const { can } = useAccess();
  return useAdminOptions(can('administrators'));
}

/**
 * A declaration whose agent and administrator filters pick from the admins of my branch instead of
 * taking an id (when the options can be loaded; else they stay number inputs).
 */
export function useAdminPickers(def: ResourceView): ResourceView {
  const admins = useAgentChoices();
  return useMemo(() => {
    const linked = def.fields.map((f) => (f.key === 'cause_id' ? { ...f, render: (v: unknown, row: Row) => <CauseLink type={row.cause_type} id={v} /> } : f));
    // A bill's remark is a kind and parameters, read in the operator's language (issue 23).
    const fields = BILL_SCREENS.has(def.name) ? withBillRemark(linked) : linked;
    if (!admins.length) return { ...def, fields };
    return {
      ...def,
      fields: fields.map((f) => ((f.key === 'agent_id' || f.key === 'admin_id') && f.search ? { ...f, type: 'enum' as const, options: admins } : f)),
    };
  }, [def, admins]);
}

/**
 * Where a bill came from, as a link to it when the console has its screen and the admin may open it: the
 * order, the casino round, the jackpot ticket, the withdrawal or recharge, the racing bet (each list
 * filtered to that one row by `id`; a coin conversion's source is not a row of a list).
 */
const CAUSE_SCREENS: Record<string, string> = {
  order: 'order_detailed',
  casino: 'casino_order_details',
  jackpot: 'jackpot_bet_list',
  withdrawal: 'withdraw_list',
  recharge: 'recharge_list',
  racing: 'racing_order',
};

export function CauseLink({ type, id }: { type: unknown; id: unknown }) {
  const { can } = useAccess();
  if (id === null || id === undefined || id === '') return <>-</>;
  const page = CAUSE_SCREENS[String(type)];
  if (!page || !can(page) || !/^\d+$/.test(String(id))) return <>{String(id)}</>;
  return (
    <a href={`#/customer/${page}?id=${encodeURIComponent(String(id))}`} data-testid="bill-cause-link">
      {String(id)}
    </a>
  );
}

/**
 * The head of an action dialog on a bettor's row: who (phone · name), one more fact of the row, and a hint.
 */
export function RowSummary({ phone, name, fact, hint }: { phone: unknown; name?: unknown; fact: { label: string; value: ReactNode }; hint: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Descriptions
        size="small"
        bordered
        column={1}
        style={{ marginBottom: 12 }}
        items={[
          { key: 'user', label: t('money.balance.user'), children: `${String(phone ?? '')}${name ? ` · ${String(name)}` : ''}` },
          { key: 'fact', label: fact.label, children: fact.value },
        ]}
      />
      <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>
    </>
  );
}
