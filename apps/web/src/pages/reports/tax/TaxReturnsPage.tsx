import { useState, type ReactNode } from 'react';
import { Alert, App, Button, DatePicker, Descriptions, Flex, Form, Input, InputNumber, Modal, Segmented, Select, Space, Table, Tabs, Tag, Typography, type TableColumnsType } from 'antd';
import { CalculatorOutlined, EditOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { formatTsh, localDay } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from '../../../kit/dayjs';
import { api, type ListAnswer } from '../../../kit/api';
import { useAccess } from '../../../kit/access';
import { ActionButton, ExportButton, LoadError, NoData, PageHeader, SettingHistoryButton, formatDateTime, useApiMutation, useLocale, useParamPatch, type Row } from '../../../resources';
import { PendingChangesNotice } from '../../../resources/SettingHistoryButton';

const PAGE = 'tax_returns';
const RATES_SETTING = 'gaming_tax_rates';
const MONTH = 'YYYY-MM';
const PAGE_SIZE = 20;
/** Products of the Gaming Board's return, by the server's ids (reports/tax/products.ts). */
const PRODUCTS = [
  { id: 1, key: 'sports', label: 'tax.product.sports' },
  { id: 2, key: 'jackpot', label: 'tax.product.jackpot' },
  { id: 3, key: 'casino', label: 'tax.product.casino' },
  { id: 4, key: 'racing', label: 'tax.product.racing' },
] as const;
const STATUS: Record<string, { label: string; color: string }> = {
  none: { label: 'tax.status.none', color: 'default' },
  queued: { label: 'tax.status.queued', color: 'processing' },
  computing: { label: 'tax.status.computing', color: 'processing' },
  ready: { label: 'tax.status.ready', color: 'green' },
  failed: { label: 'tax.status.failed', color: 'red' },
};
/** The month of Dar es Salaam, whatever the browser's zone. */
const thisMonth = () => localDay(Date.now()).slice(0, 7);

interface Rates {
  effective_month: string;
  sports_bps: number;
  jackpot_bps: number;
  casino_bps: number;
  racing_bps: number;
}
interface ProductLine extends Row {
  product: number;
  stakes: number;
  payouts: number;
  ggr: number;
  rate_bps: number;
  rate_effective_month: string;
  gaming_tax: number;
  wht: number;
}
interface TaxReturn {
  month: string;
  status: string;
  run: number;
  final: boolean;
  requested_account: string | null;
  computed_at: string | null;
  error: string | null;
  wht: { total: number; attributed: number; unattributed: number; orders: number; bettors: number };
  products: ProductLine[];
  totals: { stakes: number; payouts: number; ggr: number; gaming_tax: number; wht: number };
  rates: Rates;
}
interface RatesAnswer extends Rates {
  in_force: Rates;
  schedule: (Rates & { requested_account: string | null; approved_account: string | null; updated_at: string })[];
}

const percent = (bps: number) => `${(bps / 100).toFixed(2)} %`;
const productLabel = (id: unknown) => PRODUCTS.find((p) => p.id === Number(id))?.label ?? 'tax.product.sports';

/**
 * Reports › Tax returns (issue 30): a month's TRA withholding tax on winnings (totals, per bettor, per order
 * with a link to the order or ticket) and the Gaming Board's return per product (stakes, payouts, GGR, the
 * rate in force and the gaming tax), as computed by a background job from the ledger; the gaming tax rates,
 * whose change waits for a second administrator; every list exported as CSV or XLSX in the background.
 */
export default function TaxReturnsPage() {
  const { t } = useTranslation();
  const [params, set] = useParamPatch();
  const month = /^\d{4}-\d{2}$/.test(params.get('month') ?? '') ? params.get('month')! : thisMonth();
  const tab = params.get('tab') === 'gaming' ? 'gaming' : 'wht';
  const ret = useQuery({
    queryKey: [PAGE, 'return', month],
    queryFn: () => api.get<TaxReturn>(`/reports/tax/returns/${month}`),
    // While the job computes, look again every two seconds.
    refetchInterval: (q) => (q.state.data && ['queued', 'computing'].includes(q.state.data.status) ? 2000 : false),
  });
  const client = useQueryClient();
  const { message } = App.useApp();
  const compute = useApiMutation(() => api.post<TaxReturn>(`/reports/tax/returns/${month}/compute`), {
    success: false,
    onSuccess: (r) => {
      void message.success(t('tax.computeStarted'));
      client.setQueryData([PAGE, 'return', month], r);
    },
  });
  const computing = !!ret.data && ['queued', 'computing'].includes(ret.data.status);

  return (
    <div data-testid="tax-returns">
      <PageHeader
        title={t('menu.tax_returns')}
        description={t('tax.describe')}
        extra={
          <Space wrap>
            <DatePicker
              picker="month"
              allowClear={false}
              value={dayjs(month, MONTH)}
              disabledDate={(d: Dayjs) => d.format(MONTH) > thisMonth() || d.year() < 2000}
              onChange={(d) => d && set({ month: d.format(MONTH), page: null, day: null })}
              data-testid="tax-month"
            />
            <Button
              icon={computing ? <ReloadOutlined spin /> : <CalculatorOutlined />}
              disabled={computing || !ret.data}
              onClick={() => compute.mutate(undefined)}
              data-testid="tax-compute"
            >
              {ret.data?.status === 'none' ? t('tax.compute') : t('tax.recompute')}
            </Button>
          </Space>
        }
      />
      {ret.isError ? (
        <LoadError error={ret.error} onRetry={() => void ret.refetch()} />
      ) : (
        <>
          {ret.data && <ReturnState r={ret.data} />}
          <Tabs
            activeKey={tab}
            onChange={(k) => set({ tab: k === 'gaming' ? 'gaming' : null })}
            items={[
              { key: 'wht', label: t('tax.tab.wht'), children: <WithholdingTab month={month} r={ret.data} params={params} set={set} /> },
              { key: 'gaming', label: t('tax.tab.gaming'), children: <GamingTab month={month} r={ret.data} loading={ret.isPending} /> },
            ]}
          />
        </>
      )}
    </div>
  );
}

/** Whether the month's return exists, is being computed, is final or provisional, or failed. */
function ReturnState({ r }: { r: TaxReturn }) {
  const { t } = useTranslation();
  const s = STATUS[r.status] ?? STATUS.none!;
  const when = r.computed_at ? formatDateTime(r.computed_at) : null;
  return (
    <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }} data-testid="tax-state">
      <Tag color={s.color} data-testid={`tax-status-${r.status}`}>{t(s.label)}</Tag>
      {when && <Typography.Text type="secondary">{t('tax.computedAt', { when })}</Typography.Text>}
      {r.computed_at && <Tag color={r.final ? 'blue' : 'gold'}>{t(r.final ? 'tax.final' : 'tax.provisional')}</Tag>}
      {r.status === 'none' && <Typography.Text type="secondary">{t('tax.noneHint')}</Typography.Text>}
      {r.status === 'failed' && r.error && <Alert type="error" showIcon message={t('tax.failed')} description={r.error} style={{ width: '100%' }} />}
    </Flex>
  );
}

const money = (locale: string) => (v: unknown) => (v === null || v === undefined ? '-' : formatTsh(Number(v), locale));

/** One page of a list query as a table: its error with a retry, its loading, its empty state, its pager. */
function PagedTable({ q, columns, page, onPage, testId, onRow }: {
  q: UseQueryResult<ListAnswer<Row>>;
  columns: TableColumnsType<Row>;
  page: number;
  onPage: (p: number) => void;
  testId: string;
  onRow?: (r: Row) => object;
}) {
  if (q.isError) return <LoadError error={q.error} onRetry={() => void q.refetch()} />;
  return (
    <Table<Row>
      data-testid={testId}
      size="middle"
      rowKey={(r) => String(r.id)}
      columns={columns}
      dataSource={q.data?.items ?? []}
      loading={q.isFetching}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: q.isPending ? ' ' : <NoData /> }}
      onRow={onRow as never}
      pagination={{ current: page, pageSize: PAGE_SIZE, total: q.data?.total ?? 0, showSizeChanger: false, onChange: onPage }}
    />
  );
}

/** A figure of a Descriptions list, with its test id. */
const figure = (key: string, label: string, value: ReactNode) => ({ key, label, children: <span data-testid={`tax-${key}`}>{value}</span> });

/** The withholding tax: the month's totals, then the list per bettor or per order, filtered and exported. */
function WithholdingTab({ month, r, params, set }: { month: string; r?: TaxReturn; params: URLSearchParams; set: (p: Record<string, string | null>) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { can } = useAccess();
  const tsh = money(locale);
  const by = params.get('by') === 'order' ? 'order' : 'bettor';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const filters = {
    phone: params.get('phone') ?? '',
    bettor_id: params.get('bettor_id') ?? '',
    ...(by === 'order' ? { ref_no: params.get('ref_no') ?? '', product: params.get('product') ?? '', day: params.get('day') ?? '' } : {}),
  };
  const query: Record<string, string> = { month, ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== '')) };
  const path = by === 'order' ? '/reports/tax/wht_orders' : '/reports/tax/wht_bettors';
  const list = useQuery({
    queryKey: [PAGE, by, query, page, r?.computed_at],
    queryFn: () => api.get<ListAnswer<Row>>(path, { ...query, page, page_size: PAGE_SIZE }),
    enabled: !!r && r.status !== 'none',
  });
  const refLink = (row: Row) => {
    const target = Number(row.product) === 2 ? 'jackpot_bet_list' : 'order_detailed';
    const text = String(row.ref_no ?? row.ref_id ?? '-');
    if (row.ref_id === null || row.ref_id === undefined || !can(target)) return text;
    return <a href={`#/customer/${target}?id=${encodeURIComponent(String(row.ref_id))}`} data-testid={`tax-order-link-${String(row.ref_id)}`}>{text}</a>;
  };
  const common = [
    { key: 'phone', title: t('tax.col.phone'), dataIndex: 'phone', render: (v: unknown) => (v ? String(v) : t('tax.unknownBettor')) },
    { key: 'withheld', title: t('tax.col.withheld'), dataIndex: 'withheld', render: tsh, align: 'right' as const },
    { key: 'reversed', title: t('tax.col.reversed'), dataIndex: 'reversed', render: tsh, align: 'right' as const },
    { key: 'tax', title: t('tax.col.tax'), dataIndex: 'tax', render: tsh, align: 'right' as const },
  ];
  const columns: TableColumnsType<Row> =
    by === 'order'
      ? [
          { key: 'day', title: t('tax.col.day'), dataIndex: 'day' },
          { key: 'product', title: t('tax.col.product'), dataIndex: 'product', render: (v: unknown) => t(productLabel(v)) },
          { key: 'ref_no', title: t('tax.col.order'), render: (_: unknown, row: Row) => refLink(row) },
          ...common,
          { key: 'movements', title: t('tax.col.movements'), dataIndex: 'movements', align: 'right' as const },
          { key: 'last_at', title: t('tax.col.lastAt'), dataIndex: 'last_at', render: (v: unknown) => formatDateTime(String(v)) },
        ]
      : [
          common[0]!,
          { key: 'user_name', title: t('tax.col.name'), dataIndex: 'user_name', render: (v: unknown) => (v ? String(v) : '-') },
          { key: 'orders', title: t('tax.col.orders'), dataIndex: 'orders', align: 'right' as const },
          ...common.slice(1),
        ];
  const labels = Object.fromEntries(columns.flatMap((c) => (typeof c.title === 'string' && c.key ? [[String(c.key), c.title]] : [])));
  const w = r?.wht;
  return (
    <div data-testid="tax-wht">
      {w && (
        <Descriptions
          size="small"
          bordered
          column={{ xs: 1, md: 3 }}
          style={{ marginBottom: 12 }}
          items={[figure('wht-total', t('tax.whtTotal'), tsh(w.total)), figure('wht-bettors', t('tax.bettors'), w.bettors), figure('wht-orders', t('tax.orders'), w.orders)]}
        />
      )}
      {w && (w.unattributed > 0 || w.attributed !== w.total) && (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} message={t('tax.unattributed', { count: w.unattributed, amount: tsh(w.total - w.attributed) })} data-testid="tax-unattributed" />
      )}
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <Segmented
          value={by}
          onChange={(v) => set({ by: v === 'order' ? 'order' : null, ref_no: null, product: null, day: null })}
          options={[{ value: 'bettor', label: t('tax.byBettor') }, { value: 'order', label: t('tax.byOrder') }]}
          data-testid="tax-by"
        />
        <Input.Search
          allowClear
          style={{ width: 200 }}
          placeholder={t('tax.col.phone')}
          defaultValue={filters.phone}
          key={`phone-${filters.phone}`}
          onSearch={(v) => set({ phone: v.trim() || null })}
          data-testid="tax-filter-phone"
        />
        {by === 'order' && (
          <>
            <Input.Search
              allowClear
              style={{ width: 220 }}
              placeholder={t('tax.col.order')}
              defaultValue={filters.ref_no}
              key={`ref-${filters.ref_no}`}
              onSearch={(v) => set({ ref_no: v.trim() || null })}
              data-testid="tax-filter-order"
            />
            <Select
              allowClear
              style={{ minWidth: 160 }}
              placeholder={t('tax.col.product')}
              value={filters.product || undefined}
              onChange={(v) => set({ product: v ?? null })}
              options={PRODUCTS.filter((p) => p.id <= 2).map((p) => ({ value: String(p.id), label: t(p.label) }))}
              data-testid="tax-filter-product"
            />
            <DatePicker
              allowClear
              placeholder={t('tax.col.day')}
              value={filters.day ? dayjs(filters.day) : null}
              disabledDate={(d: Dayjs) => d.format(MONTH) !== month}
              defaultPickerValue={dayjs(`${month}-01`)}
              onChange={(d: Dayjs | null) => set({ day: d ? d.format('YYYY-MM-DD') : null })}
              data-testid="tax-filter-day"
            />
          </>
        )}
        {filters.bettor_id && (
          <Tag closable onClose={() => set({ bettor_id: null })} data-testid="tax-filter-bettor">
            {t('tax.bettorFilter', { id: filters.bettor_id })}
          </Tag>
        )}
        <ExportButton page={PAGE} api={path} name={by === 'order' ? 'tax_wht_orders' : 'tax_wht_bettors'} exportType={by === 'order' ? 'tax_wht_orders' : 'tax_wht_bettors'} query={query} labels={labels} disabled={!r || r.status === 'none'} />
      </Flex>
      {r && r.status === 'none' ? (
        <NoData />
      ) : (
        <PagedTable
          q={list}
          columns={columns}
          page={page}
          onPage={(p) => set({ page: String(p) })}
          testId={`tax-wht-${by}`}
          // A bettor's row opens their orders.
          onRow={by === 'bettor' ? (row) => ({ onClick: () => row.bettor_id && set({ by: 'order', bettor_id: String(row.bettor_id) }), style: { cursor: 'pointer' } }) : undefined}
        />
      )}
    </div>
  );
}

/** The Gaming Board's return: a line per product and the totals; the rates and their change. */
function GamingTab({ month, r, loading }: { month: string; r?: TaxReturn; loading: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const tsh = money(locale);
  const columns: TableColumnsType<ProductLine> = [
    { key: 'product', title: t('tax.col.product'), dataIndex: 'product', render: (v: unknown) => t(productLabel(v)) },
    { key: 'stakes', title: t('tax.col.stakes'), dataIndex: 'stakes', render: tsh, align: 'right' },
    { key: 'payouts', title: t('tax.col.payouts'), dataIndex: 'payouts', render: tsh, align: 'right' },
    { key: 'ggr', title: t('tax.col.ggr'), dataIndex: 'ggr', render: tsh, align: 'right' },
    { key: 'rate_bps', title: t('tax.col.rate'), dataIndex: 'rate_bps', render: (v: unknown) => percent(Number(v)), align: 'right' },
    { key: 'gaming_tax', title: t('tax.col.gamingTax'), dataIndex: 'gaming_tax', render: tsh, align: 'right' },
    { key: 'wht', title: t('tax.col.wht'), dataIndex: 'wht', render: tsh, align: 'right' },
  ];
  const labels = Object.fromEntries(columns.map((c) => [String(c.key), String(c.title)]));
  return (
    <div data-testid="tax-gaming">
      <Flex justify="end" style={{ marginBottom: 12 }}>
        <ExportButton page={PAGE} api="/reports/tax/gaming_return" name="tax_gaming_return" exportType="tax_gaming_return" query={{ month }} labels={labels} disabled={!r || r.status === 'none'} />
      </Flex>
      <Table<ProductLine>
        data-testid="tax-gaming-table"
        size="middle"
        rowKey={(p) => String(p.product)}
        columns={columns}
        dataSource={r?.products ?? []}
        loading={loading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: loading ? ' ' : <NoData /> }}
        summary={() =>
          r && r.products.length ? (
            <Table.Summary.Row data-testid="tax-gaming-totals">
              <Table.Summary.Cell index={0}><Typography.Text strong>{t('tax.total')}</Typography.Text></Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="right">{tsh(r.totals.stakes)}</Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="right">{tsh(r.totals.payouts)}</Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="right">{tsh(r.totals.ggr)}</Table.Summary.Cell>
              <Table.Summary.Cell index={4} />
              <Table.Summary.Cell index={5} align="right"><Typography.Text strong>{tsh(r.totals.gaming_tax)}</Typography.Text></Table.Summary.Cell>
              <Table.Summary.Cell index={6} align="right">{tsh(r.totals.wht)}</Table.Summary.Cell>
            </Table.Summary.Row>
          ) : null
        }
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>{t('tax.ggrHelp')}</Typography.Paragraph>
      <RatesPanel month={month} />
    </div>
  );
}

/** The rates in force, the schedule, the changes that wait for a second admin, and a proposal of new rates. */
function RatesPanel({ month }: { month: string }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const q = useQuery({ queryKey: [PAGE, 'rates'], queryFn: () => api.get<RatesAnswer>('/reports/tax/gaming_rates') });
  const rateCells = (r: Rates) => PRODUCTS.map((p) => `${t(p.label)} ${percent(r[`${p.key}_bps` as keyof Rates] as number)}`).join(' · ');
  return (
    <div style={{ marginTop: 16 }} data-testid="tax-rates">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>{t('tax.rates')}</Typography.Title>
        <Space wrap>
          <SettingHistoryButton setting={RATES_SETTING} />
          <ActionButton action="edit" page={PAGE} icon={<EditOutlined />} onClick={() => setEditing(true)} testId="tax-rates-edit">
            {t('tax.proposeRates')}
          </ActionButton>
        </Space>
      </Flex>
      <PendingChangesNotice setting={RATES_SETTING} />
      {q.isError ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : q.data ? (
        <Table
          size="small"
          data-testid="tax-rates-schedule"
          rowKey={(r) => r.effective_month}
          pagination={false}
          dataSource={q.data.schedule}
          columns={[
            {
              key: 'from', title: t('tax.col.from'), dataIndex: 'effective_month',
              render: (v: string) => (
                <Space size={4}>
                  {v}
                  {v === q.data!.in_force.effective_month && <Tag color="green">{t('tax.inForce')}</Tag>}
                  {v > thisMonth() && <Tag color="blue">{t('tax.scheduled')}</Tag>}
                </Space>
              ),
            },
            { key: 'rates', title: t('tax.col.rates'), render: (_: unknown, r: Rates) => rateCells(r) },
            { key: 'who', title: t('tax.col.who'), render: (_: unknown, r: RatesAnswer['schedule'][number]) => [r.requested_account, r.approved_account].filter(Boolean).join(' → ') || '-' },
            { key: 'updated_at', title: t('tax.col.updatedAt'), dataIndex: 'updated_at', render: (v: string) => formatDateTime(v) },
          ]}
        />
      ) : null}
      {editing && q.data && <RatesDialog current={q.data} month={month} onClose={() => setEditing(false)} />}
    </div>
  );
}

/** New rates from a month on (this month or later): saved as a pending change that a second admin approves. */
function RatesDialog({ current, month, onClose }: { current: RatesAnswer; month: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const client = useQueryClient();
  const save = useApiMutation((body: Rates) => api.put<unknown>('/reports/tax/gaming_rates', body), {
    invalidate: [[PAGE, 'rates'], [PAGE, 'return', month]],
  });
  const first = thisMonth() > month ? thisMonth() : month;
  const submit = async () => {
    const v = await form.validateFields();
    const body: Rates = { effective_month: (v.effective_month as Dayjs).format(MONTH), ...Object.fromEntries(PRODUCTS.map((p) => [`${p.key}_bps`, Math.round(Number(v[p.key]) * 100)])) } as Rates;
    await save.mutateAsync(body);
    await client.invalidateQueries({ queryKey: ['pending_change'] });
    onClose();
  };
  return (
    <Modal open title={t('tax.proposeRates')} onCancel={onClose} onOk={() => void submit().catch(() => {})} confirmLoading={save.isPending} okButtonProps={{ 'data-testid': 'tax-rates-submit' } as never} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('tax.ratesHelp')}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ effective_month: dayjs(first, MONTH), ...Object.fromEntries(PRODUCTS.map((p) => [p.key, (current[`${p.key}_bps` as keyof Rates] as number) / 100])) }}
      >
        <Form.Item name="effective_month" label={t('tax.col.from')} rules={[{ required: true }]}>
          <DatePicker picker="month" disabledDate={(d: Dayjs) => d.format(MONTH) < thisMonth()} data-testid="tax-rates-month" />
        </Form.Item>
        {PRODUCTS.map((p) => (
          <Form.Item key={p.key} name={p.key} label={`${t(p.label)} (%)`} rules={[{ required: true }]}>
            <InputNumber min={0} max={100} step={0.5} precision={2} style={{ width: 160 }} data-testid={`tax-rate-${p.key}`} />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}
