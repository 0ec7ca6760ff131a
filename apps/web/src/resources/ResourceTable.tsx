import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Flex, Space, Table, type TableColumnsType, type TableProps } from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ListAnswer } from '../kit/api';
import { buildColumns, formatSort } from './columns';
import { LoadError, NoData } from './StateViews';
import { TableSettings } from './TableSettings';
import { rowKeyOf, type FieldView, type Row } from './types';
import { PAGE_SIZES, type ListState } from './useListState';
import { useTablePrefs } from './useTablePrefs';
import { ACTIONS_WIDTH, SELECTION_WIDTH, fitColumns } from './fitColumns';

/** The width of an element, kept up to date (0 before it is laid out). */
function useWidth(): [(el: HTMLElement | null) => void, number] {
  const [width, setWidth] = useState(0);
  const ref = useCallback((el: HTMLElement | null) => {
    if (!el) return;
    setWidth(el.clientWidth);
    const ro = new ResizeObserver(([entry]) => setWidth(Math.round(entry.contentRect.width)));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, width];
}

export interface ResourceTableProps {
  /** Names the screen for the saved column and density choices. */
  screen: string;
  fields: readonly FieldView[];
  list: ListState;
  result: UseQueryResult<ListAnswer<Row>>;
  /** Buttons at the left of the toolbar (create, export, batch actions). */
  toolbar?: ReactNode;
  /** The buttons of one row (leave it out when the operator may do nothing to a row). */
  rowActions?: (row: Row) => ReactNode;
  onRowClick?: (row: Row) => void;
  rowSelection?: TableProps<Row>['rowSelection'];
  /**
   * Set while the list may not be asked for (a query screen without its required filter): the table is
   * empty and shows this hint instead of "No data".
   */
  blocked?: ReactNode;
  /** Replaces the default "No data" of an empty answer. */
  empty?: ReactNode;
}

/** A click opens the row unless it was on a control (a button, a link, the selection box) or ended a text selection. */
function opensRow(target: EventTarget): boolean {
  if (window.getSelection()?.toString()) return false;
  return !(target instanceof Element && target.closest('button, a, input, label, .ant-table-selection-column, .ant-popover, .ant-popconfirm'));
}

/** The list: toolbar, typed columns, server-side sort and paging from the URL state, saved column choices. */
export function ResourceTable({ screen, fields, list, result, toolbar, rowActions, onRowClick, rowSelection, blocked, empty }: ResourceTableProps) {
  const { t } = useTranslation();
  const prefs = useTablePrefs(screen);
  const all = useMemo(() => buildColumns(fields, t, list.sort), [fields, t, list.sort]);
  // Until the operator picks columns, the list shows those that fit its width (fitColumns).
  const [box, width] = useWidth();
  const extra = (rowActions ? ACTIONS_WIDTH : 0) + (rowSelection ? SELECTION_WIDTH : 0);
  const autoHidden = useMemo(() => fitColumns(fields, width, extra), [fields, width, extra]);
  const hidden = prefs.hidden ?? autoHidden;
  const columns = useMemo(() => {
    const shown: TableColumnsType<Row> = all.filter((c) => !hidden.includes(String(c.key)));
    if (rowActions) {
      shown.push({
        key: '__actions',
        title: t('table.actions'),
        fixed: 'end',
        render: (_: unknown, row: Row) => (
          // Buttons and their pop-confirms must not open the row's detail.
          <span onClick={(e) => e.stopPropagation()}>
            <Space size={0} wrap={false}>
              {rowActions(row)}
            </Space>
          </span>
        ),
      });
    }
    return shown;
  }, [all, hidden, rowActions, t]);

  const data = blocked ? undefined : result.data;
  const emptyText = blocked ?? (result.isPending && result.fetchStatus !== 'idle' ? ' ' : (empty ?? <NoData />));
  return (
    <div data-testid="resource-table" ref={box}>
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 12 }}>
        <Space wrap>{toolbar}</Space>
        <TableSettings
          columns={all.map((c) => ({ key: String(c.key), title: String(c.title) }))}
          hidden={hidden}
          density={prefs.density}
          onHidden={prefs.setHidden}
          onDensity={prefs.setDensity}
          onResetColumns={prefs.reset}
          onReload={blocked ? undefined : () => void result.refetch()}
          reloading={result.isFetching}
        />
      </Flex>
      {result.isError && !data && !blocked ? (
        <LoadError error={result.error} onRetry={() => void result.refetch()} />
      ) : (
        <Table<Row>
          rowKey={rowKeyOf}
          size={prefs.density}
          columns={columns}
          dataSource={data?.items ?? []}
          loading={!blocked && result.isFetching}
          rowSelection={rowSelection}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText }}
          onRow={onRowClick ? (row) => ({ onClick: (e) => opensRow(e.target) && onRowClick(row), style: { cursor: 'pointer' } }) : undefined}
          onChange={(_p, _f, sorter, extra) => {
            if (extra.action !== 'sort' || Array.isArray(sorter)) return;
            list.setSort(formatSort(sorter.order ? String(sorter.columnKey) : undefined, sorter.order));
          }}
          pagination={
            blocked
              ? false
              : {
                  current: list.page,
                  pageSize: list.pageSize,
                  total: data?.total ?? 0,
                  pageSizeOptions: PAGE_SIZES,
                  showSizeChanger: true,
                  // A big table may stop counting: "Total: 10,000+".
                  showTotal: (total) => t(data?.total_exact === false ? 'table.totalAtLeast' : 'table.total', { total: total.toLocaleString('en-US') }),
                  onChange: (page, pageSize) => list.setPage(page, pageSize),
                }
          }
        />
      )}
    </div>
  );
}
