import { useMemo } from 'react';
import { Flex, Space, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { billResource } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../kit/access';
import { api, type ListAnswer } from '../../kit/api';
import { buildColumns, LoadError, NoData, type Row } from '../../resources';
import { withBillRemark } from './billRemark';

const SHOWN = ['serial_number', 'type', 'amount', 'balance', 'remark', 'update_time'];
const LATEST = 10;

/** Links to a list screen filtered by one bettor, for the pages the operator may open. */
export function BettorLinks({ bettorId, pages }: { bettorId: unknown; pages: readonly { page: string; param?: string; value?: unknown }[] }) {
  const { t } = useTranslation();
  const { can, hasScreen } = useAccess();
  const links = pages.filter((p) => can(p.page) && hasScreen(p.page));
  if (!links.length) return null;
  return (
    <Space size={12} wrap>
      {links.map((p) => (
        <a key={p.page} href={`#/customer/${p.page}?${p.param ?? 'bettor_id'}=${encodeURIComponent(String(p.value ?? bettorId))}`} data-testid={`link-${p.page}`}>
          {t(`menu.${p.page}`)} →
        </a>
      ))}
    </Space>
  );
}

/** The latest bills of a bettor's cash account (GET /money/bills?bettor_id=), under the user's details. */
export function BettorBills({ bettor }: { bettor: Row }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const id = bettor.id;
  const allowed = can('bill');
  const query = useQuery({
    // Under ['bill']: a balance edit refreshes it with the bill lists.
    queryKey: ['bill', 'of-bettor', id],
    queryFn: () => api.get<ListAnswer<Row>>('/money/bills', { bettor_id: String(id), page: 1, page_size: LATEST, sort: '-id' }),
    enabled: allowed && id !== undefined,
  });
  // A short excerpt: no sorting here (the bill screen sorts).
  const columns = useMemo(() => buildColumns(withBillRemark(billResource.fields.filter((f) => SHOWN.includes(f.key)).map((f) => ({ ...f, sortable: false }))), t), [t]);
  if (!allowed) return null;
  return (
    <div style={{ marginTop: 24 }} data-testid="user-latest-bills">
      <Flex justify="space-between" align="baseline" wrap gap={8} style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('money.user.latestBills', { n: LATEST })}
        </Typography.Title>
        <BettorLinks bettorId={id} pages={[{ page: 'bill' }, { page: 'bill_credit' }]} />
      </Flex>
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Table<Row>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={query.data?.items ?? []}
          loading={query.isFetching}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: query.isPending ? ' ' : <NoData /> }}
        />
      )}
    </div>
  );
}
