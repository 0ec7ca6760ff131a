import { Table, type TableProps } from 'antd';

/** A small table of all the rows it is given (no pages), scrolling sideways when wider than its room. */
export function PlainTable<T extends object>(props: TableProps<T>) {
  return <Table<T> size="small" pagination={false} scroll={{ x: 'max-content' }} {...props} />;
}
