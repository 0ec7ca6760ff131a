import { useMemo } from 'react';
import { DatePicker, Flex, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from '../../kit/dayjs';
import { formatTsh, sumCents } from '@dau/domain';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { buildColumns, LoadError, NoData, useLocale, type FieldView, type Row } from '../../resources';

interface Statement {
  items: Row[];
  from: string;
  to: string;
}

const MONEY = ['stakes', 'payouts', 'recharges', 'withdrawals', 'bonuses', 'admin_changes', 'ggr', 'share'] as const;

const FIELDS: FieldView[] = [
  { key: 'account', type: 'text', label: 'field.agent_account' },
  { key: 'share_ratio', type: 'number', render: (v) => (v === null || v === undefined ? '-' : String(Number(v))) },
  ...MONEY.map((key): FieldView => ({ key, type: 'money' })),
];

const DAY = 'YYYY-MM-DD';

/**
 * Each agent's statement for a period (GET /money/admin_bills/statement): their bettors' stakes, payouts,
 * deposits, withdrawals, bonuses and admin adjustments, the gross gaming revenue and the agent's share of
 * it at their share ratio. The period is whole days in the operator's zone, kept in the URL.
 */
export function AgentStatement() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const from = dayjs(params.get('from') ?? '', DAY, true).isValid() ? dayjs(params.get('from'), DAY) : dayjs().startOf('month');
  const to = dayjs(params.get('to') ?? '', DAY, true).isValid() ? dayjs(params.get('to'), DAY) : dayjs();
  const range = { from: from.startOf('day').toISOString(), to: to.add(1, 'day').startOf('day').toISOString() };

  const q = useQuery({
    queryKey: ['admin_bill', 'statement', range],
    queryFn: () => api.get<Statement>('/money/admin_bills/statement', range),
  });
  const columns = useMemo(() => buildColumns(FIELDS, t), [t]);
  const items = q.data?.items ?? [];

  const setRange = (v: [Dayjs | null, Dayjs | null] | null) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (v?.[0] && v[1]) {
        next.set('from', v[0].format(DAY));
        next.set('to', v[1].format(DAY));
      } else {
        next.delete('from');
        next.delete('to');
      }
      return next;
    });

  return (
    <div data-testid="agent-statement">
      <Flex gap={12} align="center" wrap style={{ marginBottom: 12 }}>
        <Typography.Text>{t('money.statement.period')}</Typography.Text>
        <DatePicker.RangePicker
          value={[from, to]}
          allowClear={false}
          onChange={(v) => setRange(v as [Dayjs | null, Dayjs | null] | null)}
          disabledDate={(d) => d.isAfter(dayjs(), 'day')}
          presets={[
            { label: t('money.statement.thisMonth'), value: [dayjs().startOf('month'), dayjs()] },
            { label: t('money.statement.lastMonth'), value: [dayjs().subtract(1, 'month').startOf('month'), dayjs().subtract(1, 'month').endOf('month')] },
            { label: t('form.last7Days'), value: [dayjs().subtract(6, 'day'), dayjs()] },
            { label: t('form.last30Days'), value: [dayjs().subtract(29, 'day'), dayjs()] },
          ]}
          data-testid="statement-range"
        />
        <Typography.Text type="secondary">{t('money.statement.hint')}</Typography.Text>
      </Flex>
      {q.isError ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <Table<Row>
          size="middle"
          rowKey={(r) => String(r.agent_id)}
          columns={columns}
          dataSource={items}
          loading={q.isFetching}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: q.isPending ? ' ' : <NoData /> }}
          summary={() =>
            items.length > 1 ? (
              <Table.Summary fixed>
                <Table.Summary.Row>
                  <Table.Summary.Cell index={0} colSpan={2}>
                    <Typography.Text strong>{t('money.statement.total')}</Typography.Text>
                  </Table.Summary.Cell>
                  {MONEY.map((key, i) => {
                    const total = sumCents(items.map((r) => Number(r[key] ?? 0)));
                    return (
                      <Table.Summary.Cell key={key} index={i + 2}>
                        <Typography.Text strong type={total < 0 ? 'danger' : undefined} style={{ whiteSpace: 'nowrap' }}>
                          {formatTsh(total, locale)}
                        </Typography.Text>
                      </Table.Summary.Cell>
                    );
                  })}
                </Table.Summary.Row>
              </Table.Summary>
            ) : undefined
          }
        />
      )}
    </div>
  );
}
