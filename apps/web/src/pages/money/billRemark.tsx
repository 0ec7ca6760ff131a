import { Typography } from 'antd';
import { billRemarkText } from '@dau/domain';
import { Blank, useLocale, type FieldView, type Row } from '../../resources';

/**
 * A bill's remark in the operator's language (issue 23): the server stores what the system says as a kind
 * and parameters (`remark_kind`, `remark_params`), rendered here from the domain's templates, with an
 * admin's free text (`remark`) after it; a row written before shows its text.
 */
export function BillRemark({ text, row, width, variant = 'table' }: { text: unknown; row: Row; width?: number; variant?: 'table' | 'detail' }) {
  const locale = useLocale();
  const shown = billRemarkText(row.remark_kind, row.remark_params, typeof text === 'string' ? text : null, locale);
  if (!shown) return <Blank />;
  // As a text field shows: one line at most the column's width in a table (whole on hover), whole in the drawer.
  return variant === 'table' ? (
    <Typography.Text ellipsis={{ tooltip: shown }} style={{ maxWidth: width ?? 320 }} data-testid="bill-remark">
      {shown}
    </Typography.Text>
  ) : (
    <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }} data-testid="bill-remark">
      {shown}
    </span>
  );
}

/** Bill fields with the remark rendered by kind (lists, the detail drawer, the bills of a bettor or an order). */
export const withBillRemark = <F extends FieldView>(fields: readonly F[]): F[] =>
  fields.map((f) =>
    f.key === 'remark' ? { ...f, render: (v: unknown, row: Row, variant?: 'table' | 'detail') => <BillRemark text={v} row={row} width={f.width} variant={variant} /> } : f,
  );
