import { useCallback, useState, type ReactNode } from 'react';
import { DeleteOutlined, EditOutlined, EyeOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import type { ResourceAction } from '@dau/contract';
import { fieldLabelKey } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { selectionTitle } from '../kit/a11y';
import { useAccess } from '../kit/access';
import { useMsg } from '../kit/messages';
import { ActionButton, RowActionButton } from './ActionButton';
import { useResourceList, useResourceMutations, useResourceRecord, type ListQueryOptions } from './data';
import { DetailDrawer } from './DetailDrawer';
import { ExportButton } from './ExportButton';
import { FormModal } from './FormModal';
import { PageHeader, resourceTexts } from './PageHeader';
import { ResourceTable } from './ResourceTable';
import { SearchForm } from './SearchForm';
import { QueryHint } from './StateViews';
import { QuickFilters, type QuickFilter } from './QuickFilters';
import { rowKeyOf, type FormMode, type ResourceView, type Row } from './types';
import { unmetRequirement, useListState } from './useListState';
import { useOpenParam } from './useOpenParam';

export interface ResourceListProps {
  def: ResourceView;
  /** Extra buttons of a row, after view / edit / delete. */
  rowActions?: (row: Row) => ReactNode;
  /** Whether a declared action is offered for this row (e.g. no delete of the super role). */
  rowAllows?: (action: ResourceAction, row: Row) => boolean;
  /** Extra toolbar buttons; `selected` is set when `selectable`. */
  toolbar?: (ctx: { selected: Row[]; clearSelection(): void }) => ReactNode;
  /** Rows can be ticked; a function says which rows can (the others' boxes are disabled). */
  selectable?: boolean | ((row: Row) => boolean);
  /** Called with the server's answer after a create or an edit (e.g. to show a generated password). */
  onSaved?: (mode: FormMode, answer: unknown) => void;
  /** data-testid of the create button (default `resource-create`). */
  createTestId?: string;
  /** Dialogs and drawers of the screen's own actions. */
  children?: ReactNode;
  /** Shown between the title and the search form (e.g. summary figures). */
  intro?: ReactNode;
  /** The title and description (default true; false when the screen has its own, e.g. above tabs). */
  showHeader?: boolean;
  /** Buttons in the detail drawer's header, after edit. */
  detailActions?: (row: Row) => ReactNode;
  /** Shown in the detail drawer below the fields (e.g. the latest bills of a user). */
  detailExtra?: (row: Row) => ReactNode;
  /** The detail drawer's title for a row (default: the screen's title). */
  detailTitle?: (row: Row) => ReactNode;
  /** Columns of the detail drawer's field list on wide screens (default 1). */
  detailColumns?: 1 | 2;
  /** Reload the list every n ms while the answer asks for it (e.g. jobs in progress). */
  pollInterval?: ListQueryOptions['refetchInterval'];
  /** Replaces "No data" when the answer is empty. */
  empty?: ReactNode;
  /** One-click views in the toolbar (e.g. "Stuck"), each setting a few filters. */
  quickFilters?: readonly QuickFilter[];
}

/** The form's subject; kept while the dialog fades out (`open` false) so its title does not change. */
type Editing = { mode: FormMode; row?: Row; open: boolean };

/** A list screen built from a declaration: search form, table, detail drawer, create/edit dialog, delete, export. */
export function ResourceList({
  def,
  rowActions,
  rowAllows,
  toolbar,
  selectable,
  onSaved,
  createTestId = 'resource-create',
  children,
  intro,
  showHeader = true,
  detailActions,
  detailExtra,
  detailTitle,
  detailColumns = 1,
  pollInterval,
  empty,
  quickFilters,
}: ResourceListProps) {
  const { t } = useTranslation();
  const msg = useMsg();
  const { can } = useAccess();
  const list = useListState(def.fields, def.defaultSort);
  // A query screen asks nothing until its required filter has a value; it says what it needs instead.
  const missing = unmetRequirement(def, list.filters);
  const result = useResourceList(def, list.query, { enabled: !missing, refetchInterval: pollInterval });
  const { create, update, remove } = useResourceMutations(def);
  const [editing, setEditing] = useState<Editing>({ mode: 'create', open: false });
  const [viewing, setViewing] = useState<Row | null>(null);
  useOpenParam(result.data?.items, setViewing);
  const [selected, setSelected] = useState<Row[]>([]);
  const detail = useResourceRecord(def, viewing ? rowKeyOf(viewing) : undefined, viewing ?? undefined, def.fetchDetail !== false);
  const texts = resourceTexts(def);
  // The row the drawer shows: reloaded by id, or the list's latest copy of it (it refreshes after an action).
  const fresh = viewing ? result.data?.items.find((r) => rowKeyOf(r) === rowKeyOf(viewing)) : undefined;
  const shown = viewing ? (def.fetchDetail !== false ? detail.data : undefined) ?? fresh ?? viewing : undefined;

  const offers = useCallback(
    (action: ResourceAction, row?: Row) => def.actions.includes(action) && can(def.page, action) && (!row || !rowAllows || rowAllows(action, row)),
    [def, can, rowAllows],
  );

  const actionsOf = (row: Row) => {
    const id = rowKeyOf(row);
    return (
      <>
        <Tooltip title={t('action.view')}>
          <Button type="text" size="small" icon={<EyeOutlined />} aria-label={t('action.view')} onClick={() => setViewing(row)} data-testid={`row-view-${id}`} />
        </Tooltip>
        {offers('edit', row) && (
          <RowActionButton action="edit" page={def.page} icon={<EditOutlined />} testId={`row-edit-${id}`} onClick={() => setEditing({ mode: 'edit', row, open: true })} />
        )}
        {offers('delete', row) && (
          <RowActionButton
            action="delete"
            page={def.page}
            danger
            icon={<DeleteOutlined />}
            testId={`row-delete-${id}`}
            confirm={msg('DELETE_PERMANENT_WARNING')}
            onClick={() => remove.mutateAsync(id)}
          />
        )}
        {rowActions?.(row)}
      </>
    );
  };

  const save = async (body: Row) => {
    const answer = editing.mode === 'edit' && editing.row ? await update.mutateAsync({ id: rowKeyOf(editing.row), body }) : await create.mutateAsync(body);
    onSaved?.(editing.mode, answer);
  };

  return (
    <>
      {showHeader && <PageHeader title={t(texts.title)} description={t(texts.description)} />}
      {intro}
      <SearchForm fields={def.fields} list={list} page={def.page} />
      <ResourceTable
        screen={def.name}
        fields={def.fields}
        list={list}
        result={result}
        onRowClick={setViewing}
        rowActions={actionsOf}
        blocked={missing ? <QueryHint>{msg(missing)}</QueryHint> : undefined}
        empty={empty}
        rowSelection={selectable ? { selectedRowKeys: selected.map(rowKeyOf), onChange: (_keys, rows) => setSelected(rows), preserveSelectedRowKeys: true, columnTitle: selectionTitle, ...(typeof selectable === 'function' ? { getCheckboxProps: (r: Row) => ({ disabled: !selectable(r) }) } : {}) } : undefined}
        toolbar={
          <>
            {quickFilters && <QuickFilters views={quickFilters} list={list} />}
            {offers('create') && (
              <ActionButton action="create" page={def.page} type="primary" icon={<PlusOutlined />} testId={createTestId} onClick={() => setEditing({ mode: 'create', open: true })} />
            )}
            {offers('export') && (
              <ExportButton
                page={def.page}
                api={def.api}
                name={def.name}
                query={list.exportQuery}
                exportType={def.exportType}
                labels={Object.fromEntries(def.fields.map((f) => [f.key, t(fieldLabelKey(f))]))}
                disabled={!!missing}
              />
            )}
            {toolbar?.({ selected, clearSelection: () => setSelected([]) })}
          </>
        }
      />
      <DetailDrawer
        open={!!viewing}
        title={(shown && detailTitle?.(shown)) ?? t(texts.title)}
        columns={detailColumns}
        fields={def.fields}
        record={shown}
        loading={detail.isFetching}
        onClose={() => setViewing(null)}
        extra={
          shown && (offers('edit', shown) || detailActions) ? (
            <>
              {offers('edit', shown) && <ActionButton action="edit" page={def.page} icon={<EditOutlined />} onClick={() => setEditing({ mode: 'edit', row: shown, open: true })} />}
              {detailActions?.(shown)}
            </>
          ) : undefined
        }
      >
        {shown && detailExtra?.(shown)}
      </DetailDrawer>
      <FormModal
        open={editing.open}
        title={`${t(texts.title)} · ${t(editing.mode === 'edit' ? 'button.edit' : 'button.create')}`}
        fields={def.fields}
        mode={editing.mode}
        record={editing.row}
        onSubmit={save}
        onClose={() => setEditing((e) => ({ ...e, open: false }))}
      />
      {children}
    </>
  );
}
