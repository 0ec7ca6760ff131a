import type { ReactNode } from 'react';
import { FileSearchOutlined } from '@ant-design/icons';
import { Button, Tag, Tooltip } from 'antd';
import { formatTsh } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAccess } from '../../kit/access';
import { enumColor, enumText, useLocale, type Row } from '../../resources';

/** Lists that show orders: refreshed after a result change or a cancel. */
export const ORDER_LISTS = [['order_list'], ['cs_order'], ['order_archive'], ['cs_order_archive'], ['bet_remind'], ['bettor-bets']];

/** The detail screen of an order list: the customer-service lists open the read-only one. */
export const detailPageOf = (listPage: string) => (listPage.startsWith('cs_') ? 'cs_order_detailed' : 'order_detailed');

/** The console address of an order's detail (hash route). */
export const orderHref = (id: unknown, page = 'order_detailed') => `#/customer/${page}?id=${encodeURIComponent(String(id))}`;

/** The absolute link to an order's detail, for sharing. */
export const orderLink = (id: unknown, page = 'order_detailed') => `${window.location.origin}${window.location.pathname}${orderHref(id, page)}`;

/** Money in shillings from cents; blank stays a dash. */
export function useTsh() {
  const locale = useLocale();
  return (cents: unknown) => (cents === null || cents === undefined || cents === '' ? '-' : formatTsh(Number(cents), locale));
}

/** A signed amount ("+TSh 1,000.00", "-TSh 50.00", "TSh 0.00"). */
export function useSignedTsh() {
  const tsh = useTsh();
  return (cents: number) => (cents > 0 ? `+${tsh(cents)}` : tsh(cents));
}

/** An enumeration value as a coloured tag with its label in the operator's language. */
export function EnumTag({ name, value }: { name: string; value: unknown }) {
  const locale = useLocale();
  if (value === null || value === undefined) return <>-</>;
  return <Tag color={enumColor(name, value)}>{enumText(name, value, locale)}</Tag>;
}

/**
 * The "details" action of an order row: opens the detail screen of the list (order_detailed, or
 * cs_order_detailed from the customer-service lists). On the order list it is the `detail` button.
 */
export function OrderDetailButton({ row, listPage, children }: { row: Row; listPage: string; children?: ReactNode }) {
  const { t } = useTranslation();
  const { can, hasScreen } = useAccess();
  const navigate = useNavigate();
  const target = detailPageOf(listPage);
  if (!hasScreen(target) || !can(target)) return null;
  if (listPage === 'order_list' && !can('order_list', 'detail')) return null;
  const label = t('betting.detailAction');
  return (
    <Tooltip title={children ? undefined : label}>
      <Button
        type="text"
        size="small"
        icon={<FileSearchOutlined />}
        aria-label={label}
        data-testid={`order-detail-${String(row.id)}`}
        onClick={() => navigate(`/customer/${target}?id=${encodeURIComponent(String(row.id))}`, { state: { from: listPage } })}
      >
        {children}
      </Button>
    </Tooltip>
  );
}
