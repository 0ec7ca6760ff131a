import { useMemo, type ReactNode } from 'react';
import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { QueryKey } from '@tanstack/react-query';
import { useAccess } from '../../app/access';
import type { Option, ResourceView } from '../../resources';
import { useAdminOptions } from '../system/options';

/** Lists that show bettors: refreshed after anything changes a bettor. */
export const BETTOR_LISTS: QueryKey[] = [['user'], ['user_list'], ['online_statistical'], ['cs_user']];
/** Lists that show bills: refreshed after anything moves money. */
export const BILL_LISTS: QueryKey[] = [['bill'], ['bill_credit'], ['admin_bill'], ['cs_bill']];

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
    if (!admins.length) return def;
    return {
      ...def,
      fields: def.fields.map((f) => ((f.key === 'agent_id' || f.key === 'admin_id') && f.search ? { ...f, type: 'enum' as const, options: admins } : f)),
    };
  }, [def, admins]);
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
