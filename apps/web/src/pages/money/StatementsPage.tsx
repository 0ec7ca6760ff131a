import { useRef, useState } from 'react';
import { App, Button, DatePicker, Descriptions, Drawer, Flex, Form, Modal, Select, Space, Table, Tag, Typography, type TableColumnsType, type TableProps } from 'antd';
import { CloudDownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { formatTsh, localDay } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from '../../kit/dayjs';
import { api, type ListAnswer } from '../../kit/api';
import { useAccess } from '../../kit/access';
import { ActionButton, ExportButton, LoadError, NoData, PageHeader, SavedFilters, enumText, formatDateTime, useFeedback, useLocale, useParamPatch, type Row } from '../../resources';

const PAGE = 'operator_statements';
const DAY = 'YYYY-MM-DD';
const PAY_TYPES = [3, 4, 6, 7] as const;
const KINDS = ['ours_only', 'theirs_only', 'amount_mismatch', 'status_mismatch', 'matched'] as const;
const KIND_COLOR: Record<string, string> = { matched: 'green', ours_only: 'orange', theirs_only: 'purple', amount_mismatch: 'red', status_mismatch: 'volcano' };
const MAX_FILE_BYTES = 8 * 1024 * 1024;
/** A statement's day is a day of Africa/Dar_es_Salaam, whatever the browser's zone: yesterday there by default. */
const yesterdayEat = () => dayjs(localDay(Date.now() - 86_400_000), DAY);
const todayEat = () => dayjs(localDay(Date.now()), DAY);

/** The payment of a finding, on its own screen, filtered to it (the lists keep their filters in the URL). */
const paymentHref = (r: Row, reconcile = false) => {
  const page = r.recharge_id ? 'recharge_list' : 'withdraw_list';
  const q = new URLSearchParams({ serial_number: String(r.reference ?? '') });
  if (reconcile) q.set('reconcile', 'true');
  return `#/customer/${page}?${q.toString()}`;
};

/**
 * Money › Operator statements (issue 28): each operator's daily statement (its portal's file, uploaded or
 * fetched) matched against our recharges and withdrawals. The list says whether each day matched; a
 * statement opens its findings (ours only, theirs only, amount or status mismatch), each linked to the
 * recharge or withdrawal, and to reconciliation when ours still waits for the operator.
 */
export default function StatementsPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params, set] = useParamPatch();
  const [uploading, setUploading] = useState(false);
  const [fetching, setFetching] = useState(false);
  const filters = {
    pay_type: params.get('pay_type') ?? '',
    result: params.get('result') ?? '',
    day_from: params.get('day_from') ?? '',
    day_to: params.get('day_to') ?? '',
    latest: params.get('history') === 'true' ? '' : 'true',
  };
  const query = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ''));
  const page = Math.max(1, Number(params.get('page')) || 1);
  const openId = params.get('id');

  const list = useQuery({
    queryKey: [PAGE, query, page],
    queryFn: () => api.get<ListAnswer<Row>>('/money/operator_statements', { ...query, page, page_size: 20 }),
  });
  const payTypeText = (v: unknown) => enumText('pay_type', v, locale);

  const columns = [
    { key: 'day', title: t('money.opStatements.day'), dataIndex: 'day' },
    { key: 'pay_type', title: t('field.pay_type'), dataIndex: 'pay_type', render: payTypeText },
    { key: 'result', title: t('money.opStatements.result'), dataIndex: 'result', render: (v: unknown) => <ResultTag result={v} /> },
    {
      key: 'counts', title: t('money.opStatements.findings'),
      render: (_: unknown, r: Row) => (
        <Space size={4} wrap>
          <Tag color="green">{t('money.opStatements.kind.matched')} {String(r.matched)}</Tag>
          {KINDS.filter((k) => k !== 'matched' && Number(r[k]) > 0).map((k) => (
            <Tag key={k} color={KIND_COLOR[k]} data-testid={`statement-count-${k}`}>{t(`money.opStatements.kind.${k}`)} {String(r[k])}</Tag>
          ))}
        </Space>
      ),
    },
    { key: 'lines', title: t('money.opStatements.lines'), dataIndex: 'lines' },
    { key: 'their_collect', title: t('money.opStatements.theirCollect'), dataIndex: 'their_collect', render: (v: unknown) => formatTsh(Number(v), locale) },
    { key: 'their_disburse', title: t('money.opStatements.theirDisburse'), dataIndex: 'their_disburse', render: (v: unknown) => formatTsh(Number(v), locale) },
    { key: 'source', title: t('money.opStatements.source'), render: (_: unknown, r: Row) => `${t(`money.opStatements.sourceKind.${String(r.source)}`)} · v${String(r.version)}` },
    { key: 'created', title: t('money.opStatements.imported'), render: (_: unknown, r: Row) => `${formatDateTime(r.create_time as string)} ${r.created_by_account ? `· ${String(r.created_by_account)}` : ''}` },
  ];

  return (
    <div data-testid="operator-statements">
      <PageHeader
        title={t('menu.operator_statements')}
        description={t('money.describe.operator_statements')}
        extra={
          <Space wrap>
            <ActionButton action="import" page={PAGE} icon={<UploadOutlined />} onClick={() => setUploading(true)} testId="statement-upload">
              {t('money.opStatements.upload')}
            </ActionButton>
            <ActionButton action="import" page={PAGE} icon={<CloudDownloadOutlined />} onClick={() => setFetching(true)} testId="statement-fetch">
              {t('money.opStatements.fetch')}
            </ActionButton>
            <ExportButton page={PAGE} api="/money/operator_statements" name={PAGE} exportType="operator_statements" query={query} />
          </Space>
        }
      />
      <Flex gap={8} wrap style={{ marginBottom: 12 }} data-testid="statement-filters">
        <Select
          allowClear
          style={{ minWidth: 180 }}
          placeholder={t('field.pay_type')}
          value={filters.pay_type || undefined}
          onChange={(v) => set({ pay_type: v ?? null })}
          options={PAY_TYPES.map((p) => ({ value: String(p), label: payTypeText(p) }))}
          data-testid="statement-filter-pay-type"
        />
        <Select
          allowClear
          style={{ minWidth: 160 }}
          placeholder={t('money.opStatements.result')}
          value={filters.result || undefined}
          onChange={(v) => set({ result: v ?? null })}
          options={['matched', 'mismatch'].map((v) => ({ value: v, label: t(`money.opStatements.resultKind.${v}`) }))}
          data-testid="statement-filter-result"
        />
        <DatePicker.RangePicker
          value={filters.day_from && filters.day_to ? [dayjs(filters.day_from, DAY), dayjs(filters.day_to, DAY)] : null}
          onChange={(v) => set({ day_from: v?.[0]?.format(DAY) ?? null, day_to: v?.[1]?.format(DAY) ?? null })}
        />
        <Select
          style={{ minWidth: 180 }}
          value={filters.latest ? 'latest' : 'history'}
          onChange={(v) => set({ history: v === 'history' ? 'true' : null })}
          options={[{ value: 'latest', label: t('money.opStatements.latestOnly') }, { value: 'history', label: t('money.opStatements.allImports') }]}
          data-testid="statement-filter-history"
        />
        <SavedFilters omit={['page', 'id']} />
      </Flex>
      <PagedTable
        query={list}
        testId="statement-table"
        size="middle"
        columns={columns}
        page={page}
        pageSize={20}
        onPage={(p) => set({ page: String(p) })}
        onRow={(r) => ({ onClick: () => set({ id: String(r.id), page: String(page) }), style: { cursor: 'pointer' }, 'data-testid': `statement-row-${String(r.id)}` }) as never}
      />
      {openId && <StatementDrawer id={openId} onClose={() => set({ id: null, page: String(page) })} />}
      {uploading && <UploadDialog onClose={() => setUploading(false)} onDone={(id) => set({ id: String(id) })} />}
      {fetching && <FetchDialog onClose={() => setFetching(false)} onDone={(id) => set({ id: String(id) })} />}
    </div>
  );
}

/** One page of a list query as a table: its error with a retry, its loading, its empty state, its pager. */
function PagedTable(props: {
  query: UseQueryResult<ListAnswer<Row>>;
  testId: string;
  size: 'middle' | 'small';
  columns: TableColumnsType<Row>;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  onRow?: TableProps<Row>['onRow'];
}) {
  const { query: q } = props;
  if (q.isError) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  return (
    <Table<Row>
      data-testid={props.testId}
      size={props.size}
      rowKey={(r) => String(r.id)}
      columns={props.columns}
      dataSource={q.data?.items ?? []}
      loading={q.isFetching}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: q.isPending ? ' ' : <NoData /> }}
      onRow={props.onRow}
      pagination={{ current: props.page, pageSize: props.pageSize, total: q.data?.total ?? 0, showSizeChanger: false, onChange: props.onPage }}
    />
  );
}

function ResultTag({ result }: { result: unknown }) {
  const { t } = useTranslation();
  return result === 'matched' ? (
    <Tag color="green" data-testid="statement-result">{t('money.opStatements.resultKind.matched')}</Tag>
  ) : (
    <Tag color="red" data-testid="statement-result">{t('money.opStatements.resultKind.mismatch')}</Tag>
  );
}

/** One statement's findings, filtered by kind; each links to its payment and, when ours waits, to reconciliation. */
function StatementDrawer({ id, onClose }: { id: string; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { can } = useAccess();
  const [kind, setKind] = useState<string>('problems');
  const [page, setPage] = useState(1);
  const head = useQuery({ queryKey: [PAGE, 'one', id], queryFn: () => api.get<Row>(`/money/operator_statements/${id}`) });
  const itemQuery = { statement_id: id, ...(kind === 'problems' ? { problems: 'true' } : kind === 'all' ? {} : { kind }) };
  const items = useQuery({
    queryKey: [PAGE, 'items', itemQuery, page],
    queryFn: () => api.get<ListAnswer<Row>>('/money/operator_statement_items', { ...itemQuery, page, page_size: 50 }),
  });
  const money = (v: unknown) => (v === null || v === undefined ? '-' : formatTsh(Number(v), locale));
  const status = (v: unknown) => (v ? t(`money.opStatements.status.${String(v)}`) : '-');
  const s = head.data;
  const columns = [
    { key: 'kind', title: t('money.opStatements.finding'), dataIndex: 'kind', render: (v: unknown) => <Tag color={KIND_COLOR[String(v)]}>{t(`money.opStatements.kind.${String(v)}`)}</Tag> },
    { key: 'direction', title: t('money.opStatements.direction'), dataIndex: 'direction', render: (v: unknown) => t(`money.opStatements.dir.${String(v)}`) },
    { key: 'line_no', title: t('money.opStatements.line'), dataIndex: 'line_no', render: (v: unknown) => (v == null ? '-' : String(v)) },
    { key: 'reference', title: t('field.serial_number'), dataIndex: 'reference', render: (v: unknown) => (v == null ? '-' : String(v)) },
    { key: 'operator_ref', title: t('field.carrier_order_number'), dataIndex: 'operator_ref', render: (v: unknown) => (v == null ? '-' : String(v)) },
    { key: 'ours', title: t('money.opStatements.ours'), render: (_: unknown, r: Row) => `${money(r.our_amount)} · ${status(r.our_status)}` },
    { key: 'theirs', title: t('money.opStatements.theirs'), render: (_: unknown, r: Row) => `${money(r.their_amount)} · ${status(r.their_status)}` },
    { key: 'their_time', title: t('money.opStatements.time'), dataIndex: 'their_time', render: (v: unknown) => (v ? formatDateTime(String(v)) : '-') },
    {
      key: 'links', title: t('money.opStatements.open'),
      render: (_: unknown, r: Row) => {
        const page = r.recharge_id ? 'recharge_list' : 'withdraw_list';
        if (!r.recharge_id && !r.withdrawal_id) return '-';
        return (
          <Space size={8}>
            {can(page) && <a href={paymentHref(r)} data-testid={`statement-item-open-${String(r.id)}`}>{t(r.recharge_id ? 'money.opStatements.openRecharge' : 'money.opStatements.openWithdrawal')}</a>}
            {r.reconcile === true && can(page, 'reconcile') && (
              <a href={paymentHref(r, r.awaiting_reconciliation === true)} data-testid={`statement-item-reconcile-${String(r.id)}`}>{t('money.opStatements.reconcile')}</a>
            )}
          </Space>
        );
      },
    },
  ];
  return (
    <Drawer open onClose={onClose} width={Math.min(1100, window.innerWidth)} title={s ? `${enumText('pay_type', s.pay_type, locale)} · ${String(s.day)}` : t('menu.operator_statements')} data-testid="statement-drawer">
      {head.isError ? (
        <LoadError error={head.error} onRetry={() => void head.refetch()} />
      ) : s ? (
        <Descriptions size="small" column={{ xs: 1, md: 3 }} style={{ marginBottom: 12 }}>
          <Descriptions.Item label={t('money.opStatements.result')}><ResultTag result={s.result} /></Descriptions.Item>
          <Descriptions.Item label={t('money.opStatements.source')}>{`${t(`money.opStatements.sourceKind.${String(s.source)}`)} · v${String(s.version)}`}</Descriptions.Item>
          <Descriptions.Item label={t('money.opStatements.file')}>{String(s.file_name || '-')}</Descriptions.Item>
          <Descriptions.Item label={t('money.opStatements.theirCollect')}>{money(s.their_collect)}</Descriptions.Item>
          <Descriptions.Item label={t('money.opStatements.ourCollect')}>{money(s.our_collect)}</Descriptions.Item>
          <Descriptions.Item label={t('money.opStatements.lines')}>{`${String(s.lines)} (${t('money.opStatements.skipped', { n: s.skipped })})`}</Descriptions.Item>
          <Descriptions.Item label={t('money.opStatements.theirDisburse')}>{money(s.their_disburse)}</Descriptions.Item>
          <Descriptions.Item label={t('money.opStatements.ourDisburse')}>{money(s.our_disburse)}</Descriptions.Item>
        </Descriptions>
      ) : null}
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <Select
          style={{ minWidth: 220 }}
          value={kind}
          onChange={(v) => {
            setKind(v);
            setPage(1);
          }}
          options={[
            { value: 'problems', label: t('money.opStatements.problems') },
            { value: 'all', label: t('money.opStatements.all') },
            ...KINDS.map((k) => ({ value: k, label: t(`money.opStatements.kind.${k}`) })),
          ]}
          data-testid="statement-kind-filter"
        />
        <ExportButton page={PAGE} api="/money/operator_statement_items" name="operator_statement_items" exportType="operator_statement_items" query={itemQuery} />
      </Flex>
      <PagedTable query={items} testId="statement-items" size="small" columns={columns} page={page} pageSize={50} onPage={setPage} />
    </Drawer>
  );
}

interface StatementAnswer {
  id: number;
  result: string;
}

/** Toast of a new statement: matched, or how many findings need a look. */
function useStatementToast() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (s: StatementAnswer & Row) =>
    s.result === 'matched'
      ? void message.success(t('money.opStatements.toastMatched', { lines: s.lines }))
      : void message.warning(t('money.opStatements.toastMismatch', { n: Number(s.ours_only) + Number(s.theirs_only) + Number(s.amount_mismatch) + Number(s.status_mismatch) }), 6);
}

function DayAndOperator({ provider }: { provider?: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <>
      <Form.Item name="pay_type" label={t('field.pay_type')} rules={[{ required: true }]}>
        <Select options={PAY_TYPES.map((p) => ({ value: p, label: enumText('pay_type', p, locale) }))} data-testid="statement-form-pay-type" />
      </Form.Item>
      <Form.Item name="day" label={t('money.opStatements.day')} rules={[{ required: true }]}>
        <DatePicker disabledDate={(d: Dayjs) => d.isAfter(todayEat(), 'day')} data-testid="statement-form-day" />
      </Form.Item>
      {provider && (
        <Form.Item name="provider" label={t('money.opStatements.format')} extra={t('money.opStatements.formatHelp')}>
          <Select allowClear options={['mpesa', 'airtel', 'aggregator'].map((p) => ({ value: p, label: t(`money.opStatements.provider.${p}`) }))} />
        </Form.Item>
      )}
    </>
  );
}

function UploadDialog({ onClose, onDone }: { onClose: () => void; onDone: (id: number) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const { fail } = useFeedback();
  const toast = useStatementToast();
  const client = useQueryClient();
  const submit = async () => {
    const v = await form.validateFields();
    if (!file) return;
    setBusy(true);
    try {
      const s = await api.post<StatementAnswer & Row>('/money/operator_statements/import', {
        pay_type: v.pay_type, day: (v.day as Dayjs).format(DAY), ...(v.provider ? { provider: v.provider } : {}), file_name: file.name, text: file.text,
      });
      toast(s);
      await client.invalidateQueries({ queryKey: [PAGE] });
      onDone(s.id);
      onClose();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t('money.opStatements.uploadTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okButtonProps={{ disabled: !file, 'data-testid': 'statement-upload-submit' } as never} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ day: yesterdayEat() }}>
        <DayAndOperator provider />
        <Form.Item label={t('money.opStatements.file')} required extra={t('money.opStatements.fileHelp')}>
          {/* A plain file input (the file is read here, nothing is uploaded by the picker itself). */}
          <input
            ref={picker}
            type="file"
            accept=".csv,text/csv,text/plain"
            hidden
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (!f) return;
              if (f.size > MAX_FILE_BYTES) {
                fail(new Error(t('money.opStatements.tooLarge')));
                return;
              }
              void f.text().then((text) => setFile({ name: f.name, text }));
            }}
          />
          <Button icon={<UploadOutlined />} onClick={() => picker.current?.click()} data-testid="statement-file">{t('money.opStatements.pickFile')}</Button>
          {file && <Typography.Text style={{ marginLeft: 8 }} data-testid="statement-file-name">{file.name}</Typography.Text>}
        </Form.Item>
      </Form>
    </Modal>
  );
}

function FetchDialog({ onClose, onDone }: { onClose: () => void; onDone: (id: number) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const { fail } = useFeedback();
  const toast = useStatementToast();
  const client = useQueryClient();
  const submit = async () => {
    const v = await form.validateFields();
    setBusy(true);
    try {
      const s = await api.post<StatementAnswer & Row>('/money/operator_statements/fetch', { pay_type: v.pay_type, day: (v.day as Dayjs).format(DAY) });
      toast(s);
      await client.invalidateQueries({ queryKey: [PAGE] });
      onDone(s.id);
      onClose();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t('money.opStatements.fetchTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={busy} okButtonProps={{ 'data-testid': 'statement-fetch-submit' } as never} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('money.opStatements.fetchHelp')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ day: yesterdayEat() }}>
        <DayAndOperator />
      </Form>
    </Modal>
  );
}
