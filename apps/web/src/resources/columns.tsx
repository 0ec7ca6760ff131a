import type { TableColumnsType, TableColumnType } from 'antd';
import type { TFunction } from 'i18next';
import { fieldLabelKey, inTable } from '@dau/contract/ui';
import { FieldValue } from './FieldValue';
import type { FieldView, Row } from './types';

type SortOrder = 'ascend' | 'descend' | null;

/** `-id` -> { field: 'id', order: 'descend' } */
export function parseSort(sort: string | undefined): { field?: string; order: SortOrder } {
  if (!sort) return { order: null };
  return sort.startsWith('-') ? { field: sort.slice(1), order: 'descend' } : { field: sort, order: 'ascend' };
}

export const formatSort = (field: string | undefined, order: SortOrder | undefined): string | undefined =>
  field && order ? (order === 'descend' ? `-${field}` : field) : undefined;

/** The table's columns from the fields shown in the table: typed renderers, server-side sorting. */
export function buildColumns(fields: readonly FieldView[], t: TFunction, sort?: string): TableColumnsType<Row> {
  const current = parseSort(sort);
  return fields.filter(inTable).map(
    (f): TableColumnType<Row> => ({
      key: f.key,
      dataIndex: f.key,
      title: t(fieldLabelKey(f)),
      width: f.width,
      // Amounts line up on their decimal point.
      align: f.type === 'money' ? 'right' : undefined,
      // The server sorts; a click goes ascend -> descend -> ascend (the default order comes back with Reset).
      sorter: f.sortable ? true : undefined,
      sortDirections: f.sortable ? ['ascend', 'descend', 'ascend'] : undefined,
      sortOrder: f.sortable ? (current.field === f.key ? current.order : null) : undefined,
      render: (value: unknown, row: Row) => <FieldValue field={f} value={value} row={row} />,
    }),
  );
}
