import { useEffect, useMemo, useRef, useState } from 'react';
import { App, Button, Checkbox, Dropdown, Form, Input, Popconfirm, Select, Space, Table, Tag, Tooltip, type MenuProps } from 'antd';
import { DeleteOutlined, DownOutlined, EditOutlined, FilterOutlined, PushpinFilled, PushpinOutlined, TeamOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SAVED_FILTER_NAME_MAX, SAVED_FILTERS_PER_PAGE, type SavedFilterRow, type SavedFiltersAnswer } from '@dau/contract/ui';
import { ApiFailure, api } from '../kit/api';
import { useAccess, useCurrentPage } from '../kit/access';
import { DialogBox } from '../kit/DialogBox';
import { FormDialog } from './FormModal';
import { useFeedback } from './feedback';
import { applyServerErrors } from './serverErrors';

const BASE = '/system/saved_filters';
const queryKey = (page: string) => ['saved_filters', page];
/** The page number is where one is in a view, not part of it. */
const NOT_A_VIEW: readonly string[] = ['page'];

/** A query string in a stable form (its keys sorted, `omit` dropped), to tell which saved filter is shown. */
function canonical(query: string | URLSearchParams, omit: readonly string[]): string {
  const params = new URLSearchParams(query);
  for (const k of omit) params.delete(k);
  params.sort();
  return params.toString();
}

export interface SavedFiltersProps {
  /** The catalogue page the list is (default: the current /customer/{page}). */
  page?: string;
  /** Query keys that are not part of a view (default: `page`, the page number). */
  omit?: readonly string[];
}

type Editing = { mode: 'create' } | { mode: 'edit'; row: SavedFilterRow };

/**
 * Saved filters of a list (issue 29): the list's URL query (filters, sort, page size) saved under a name on
 * the server, one click to apply one, one pinned as the list's default (applied when the list opens with no
 * query), shared read-only with a role. It reads and writes the URL, so it serves every list that keeps its
 * state there: the search form shows it, a hand-written list adds `<SavedFilters />` to its filters.
 */
export function SavedFilters({ page: pageProp, omit = NOT_A_VIEW }: SavedFiltersProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const current = useCurrentPage();
  const { can } = useAccess();
  const page = pageProp ?? current;
  const allowed = !!page && can(page);
  const [params, setParams] = useSearchParams();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [managing, setManaging] = useState(false);
  const { data } = useQuery({
    queryKey: queryKey(page),
    queryFn: () => api.get<SavedFiltersAnswer>(BASE, { page }),
    enabled: allowed,
    staleTime: 30_000,
  });
  const items = useMemo(() => data?.items ?? [], [data]);
  const shown = canonical(params, omit);
  const active = items.find((f) => canonical(f.query, omit) === shown);

  // The pinned default, once, when the list opened with no query of its own.
  const decided = useRef(false);
  const openedEmpty = useRef(shown === '');
  useEffect(() => {
    if (decided.current || !data) return;
    decided.current = true;
    const pinned = data.items.find((f) => f.id === data.default_id);
    if (pinned && openedEmpty.current && canonical(params, omit) === '') setParams(new URLSearchParams(pinned.query), { replace: true });
  }, [data, params, omit, setParams]);

  if (!allowed) return null;

  const apply = (f: SavedFilterRow) => {
    setParams(new URLSearchParams(f.query));
    void message.success(t('savedFilters.applied', { name: f.name }));
  };
  const refresh = () => qc.invalidateQueries({ queryKey: queryKey(page) });

  const row = (f: SavedFilterRow) => ({
    key: `f${f.id}`,
    label: (
      <span data-testid={`saved-filter-${f.id}`}>
        {f.name}
        {f.is_default && <PushpinFilled style={{ marginInlineStart: 6 }} aria-label={t('savedFilters.pinned')} />}
        {f.mine && f.shared_role_id !== null && <TeamOutlined style={{ marginInlineStart: 6 }} aria-label={t('savedFilters.sharedWith', { role: f.shared_role_name ?? '' })} />}
      </span>
    ),
  });
  const mine = items.filter((f) => f.mine);
  const shared = items.filter((f) => !f.mine);
  const menu: MenuProps['items'] = [
    ...(items.length === 0 ? [{ key: 'none', label: t('savedFilters.none'), disabled: true }] : []),
    ...(mine.length ? [{ type: 'group' as const, key: 'mine', label: t('savedFilters.mine'), children: mine.map(row) }] : []),
    ...(shared.length ? [{ type: 'group' as const, key: 'shared', label: t('savedFilters.shared'), children: shared.map(row) }] : []),
    { type: 'divider' as const },
    mine.length >= SAVED_FILTERS_PER_PAGE
      ? { key: 'full', disabled: true, label: t('savedFilters.full', { max: SAVED_FILTERS_PER_PAGE }) }
      : { key: 'save', label: <span data-testid="saved-filters-save">{t('savedFilters.saveCurrent')}</span> },
    ...(items.length ? [{ key: 'manage', label: <span data-testid="saved-filters-manage">{t('savedFilters.manage')}</span> }] : []),
  ];
  const onMenu: MenuProps['onClick'] = ({ key }) => {
    if (key === 'save') setEditing({ mode: 'create' });
    else if (key === 'manage') setManaging(true);
    else {
      const f = items.find((i) => `f${i.id}` === key);
      if (f) apply(f);
    }
  };

  return (
    <>
      <Dropdown trigger={['click']} menu={{ items: menu, onClick: onMenu, selectable: true, selectedKeys: active ? [`f${active.id}`] : [] }}>
        <Button icon={<FilterOutlined />} data-testid="saved-filters">
          <span style={{ display: 'inline-block', maxWidth: 180, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', verticalAlign: 'bottom' }}>
            {active ? active.name : t('savedFilters.button')}
          </span>
          <DownOutlined />
        </Button>
      </Dropdown>
      {editing && (
        <FilterForm
          page={page}
          editing={editing}
          query={canonical(params, omit)}
          roles={data?.share_roles ?? []}
          onClose={() => setEditing(null)}
          onSaved={() => {
            void refresh();
            setEditing(null);
          }}
        />
      )}
      <DialogBox open={managing} title={t('savedFilters.manageTitle')} maxWidth={720} onClose={() => setManaging(false)} footer={null} testId="saved-filters-dialog">
        <Table<SavedFilterRow>
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={items}
          scroll={{ x: 'max-content' }}
          columns={[
            {
              key: 'name',
              title: t('savedFilters.name'),
              render: (_, f) => (
                <Space size={4} wrap>
                  <Button type="link" size="small" style={{ padding: 0 }} onClick={() => {
                      setManaging(false);
                      apply(f);
                    }}>
                    {f.name}
                  </Button>
                  {f.is_default && <Tag color="blue">{t('savedFilters.pinned')}</Tag>}
                </Space>
              ),
            },
            {
              key: 'share',
              title: t('savedFilters.share'),
              render: (_, f) => (f.mine ? (f.shared_role_name ?? t('savedFilters.notShared')) : t('savedFilters.by', { account: f.owner_account })),
            },
            {
              key: 'actions',
              title: t('table.actions'),
              render: (_, f) =>
                f.mine ? (
                  <ManageActions row={f} onEdit={() => setEditing({ mode: 'edit', row: f })} onChanged={refresh} />
                ) : (
                  <Tag>{t('savedFilters.readOnly')}</Tag>
                ),
            },
          ]}
        />
      </DialogBox>
    </>
  );
}

/** Pin or unpin, edit, delete (asked first) one's own saved filter; a toast after each. */
function ManageActions({ row, onEdit, onChanged }: { row: SavedFilterRow; onEdit(): void; onChanged(): Promise<unknown> }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const fb = useFeedback();
  const [busy, setBusy] = useState(false);
  const run = async (call: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await call();
      await onChanged();
      void message.success(done);
    } catch (err) {
      fb.fail(err);
    } finally {
      setBusy(false);
    }
  };
  const pinLabel = row.is_default ? t('savedFilters.unpinAction') : t('savedFilters.pinAction');
  return (
    <Space size={0}>
      <Tooltip title={pinLabel}>
        <Button
          type="text"
          size="small"
          loading={busy}
          aria-label={pinLabel}
          data-testid={`saved-filter-pin-${row.id}`}
          icon={row.is_default ? <PushpinFilled /> : <PushpinOutlined />}
          onClick={() => void run(() => api.put(`${BASE}/${row.id}/default`, { is_default: !row.is_default }), row.is_default ? t('savedFilters.unpinned') : t('savedFilters.pinnedDone'))}
        />
      </Tooltip>
      <Tooltip title={t('button.edit')}>
        <Button type="text" size="small" aria-label={t('button.edit')} data-testid={`saved-filter-edit-${row.id}`} icon={<EditOutlined />} onClick={onEdit} />
      </Tooltip>
      <Popconfirm
        title={t('savedFilters.deleteConfirm', { name: row.name })}
        onConfirm={() => run(() => api.del(`${BASE}/${row.id}`), t('savedFilters.deleted'))}
        okButtonProps={{ danger: true, 'data-testid': 'confirm-ok' } as never}
      >
        <Tooltip title={t('button.delete')}>
          <Button type="text" size="small" danger aria-label={t('button.delete')} data-testid={`saved-filter-delete-${row.id}`} icon={<DeleteOutlined />} />
        </Tooltip>
      </Popconfirm>
    </Space>
  );
}

interface FilterFormValues {
  name: string;
  is_default?: boolean;
  shared_role_id?: number | null;
  replace_query?: boolean;
}

/** Save the current filters under a name (pinned, shared), or edit a saved one (name, sharing, its filters replaced by the current ones). */
function FilterForm({ page, editing, query, roles, onClose, onSaved }: {
  page: string;
  editing: Editing;
  query: string;
  roles: SavedFiltersAnswer['share_roles'];
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const fb = useFeedback();
  const [form] = Form.useForm<FilterFormValues>();
  const [saving, setSaving] = useState(false);
  const row = editing.mode === 'edit' ? editing.row : undefined;
  const options = roles.map((r) => ({ value: r.id, label: r.name }));
  // A filter shared with a role the admin may no longer offer keeps it as a choice.
  if (row?.shared_role_id != null && !roles.some((r) => r.id === row.shared_role_id)) options.push({ value: row.shared_role_id, label: row.shared_role_name ?? String(row.shared_role_id) });

  const submit = async (v: FilterFormValues) => {
    setSaving(true);
    try {
      if (row) {
        await api.put(`${BASE}/${row.id}`, { name: v.name, shared_role_id: v.shared_role_id ?? null, ...(v.replace_query ? { query } : {}) });
      } else {
        await api.post(BASE, { page, name: v.name, query, is_default: !!v.is_default, shared_role_id: v.shared_role_id ?? null });
      }
      void message.success(t('savedFilters.saved', { name: v.name.trim() }));
      onSaved();
    } catch (err) {
      // The server answers generic codes here (no product message of their own): the texts are the console's.
      if (err instanceof ApiFailure && err.status === 409) form.setFields([{ name: 'name', errors: [t('savedFilters.nameTaken')] }]);
      else if (err instanceof ApiFailure && err.status === 422) void message.error(t('savedFilters.full', { max: SAVED_FILTERS_PER_PAGE }));
      else if (!applyServerErrors(form, err, ['name', 'shared_role_id'])) fb.fail(err);
    } finally {
      setSaving(false);
    }
  };

  return (
    <FormDialog open title={t(row ? 'savedFilters.editTitle' : 'savedFilters.saveTitle')} maxWidth={480} formId="saved_filter_form" saving={saving} onClose={onClose} testId="saved-filter-form">
      <Form<FilterFormValues>
        form={form}
        id="saved_filter_form"
        name="saved_filter_form"
        layout="vertical"
        initialValues={{ name: row?.name ?? '', shared_role_id: row?.shared_role_id ?? undefined, is_default: false, replace_query: false }}
        onFinish={(v) => void submit(v)}
      >
        <Form.Item name="name" label={t('savedFilters.name')} rules={[{ required: true, whitespace: true, message: t('savedFilters.nameRequired') }]}>
          <Input maxLength={SAVED_FILTER_NAME_MAX} showCount autoFocus data-testid="saved-filter-name" />
        </Form.Item>
        <Form.Item name="shared_role_id" label={t('savedFilters.share')}>
          <Select allowClear options={options} placeholder={t('savedFilters.notShared')} data-testid="saved-filter-role" />
        </Form.Item>
        {row ? (
          <Form.Item name="replace_query" valuePropName="checked" style={{ marginBottom: 0 }}>
            <Checkbox data-testid="saved-filter-replace">{t('savedFilters.replaceQuery')}</Checkbox>
          </Form.Item>
        ) : (
          <Form.Item name="is_default" valuePropName="checked" style={{ marginBottom: 0 }}>
            <Checkbox data-testid="saved-filter-default">{t('savedFilters.pin')}</Checkbox>
          </Form.Item>
        )}
      </Form>
    </FormDialog>
  );
}
