import { Flex, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTsh } from '@dau/domain';
import type { CloseLedger } from '@dau/contract/ui';
import { enumText, useLocale } from '../../../resources';

/**
 * What breaks the ledger's invariants, kind by kind (the ledger self-check's answer, or the check a close
 * kept): balances that are not the sum of their bills (the bettor, by how much), bills whose arithmetic is
 * wrong, broken chains, unbalanced journal transactions. Kinds without a problem are left out.
 */
export function LedgerProblems({ check }: { check: Pick<CloseLedger, 'counts' | 'balances' | 'bills' | 'chains' | 'journal'> }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = (v: unknown) => <span style={{ whiteSpace: 'nowrap' }}>{formatTsh(Number(v), locale)}</span>;
  const account = (v: unknown) => enumText('account_kind', v, locale);
  const billType = (v: unknown, r: { account_kind: number }) => enumText(r.account_kind === 2 ? 'credit_bill_type' : 'bill_type', v, locale);
  const title = (label: string, shown: number, n: number) => (
    <Flex gap={8} align="baseline">
      <Typography.Text strong>{label}</Typography.Text>
      <Typography.Text type="secondary">{t('reports.ledger.shown', { shown, n })}</Typography.Text>
    </Flex>
  );
  const common = { size: 'small' as const, pagination: false as const, scroll: { x: 'max-content' }, style: { marginBottom: 16 } };
  return (
    <div data-testid="ledger-problems">
      {check.counts.balances > 0 && (
        <Table
          {...common}
          data-testid="ledger-balances"
          title={() => title(t('reports.ledger.balances'), check.balances.length, check.counts.balances)}
          rowKey={(r) => `${r.bettor_id}-${r.account_kind}`}
          dataSource={check.balances}
          columns={[
            { key: 'bettor', title: t('reports.ledger.col.bettor'), dataIndex: 'bettor_id' },
            { key: 'phone', title: t('reports.ledger.col.phone'), dataIndex: 'phone' },
            { key: 'account', title: t('reports.ledger.col.account'), dataIndex: 'account_kind', render: account },
            { key: 'balance', title: t('reports.ledger.col.balance'), dataIndex: 'balance', render: money },
            { key: 'sum', title: t('reports.ledger.col.billsSum'), dataIndex: 'bills_sum', render: money },
            { key: 'difference', title: t('reports.ledger.col.difference'), dataIndex: 'difference', render: (v) => <Typography.Text type="danger">{money(v)}</Typography.Text> },
          ]}
        />
      )}
      {check.counts.bills > 0 && (
        <Table
          {...common}
          data-testid="ledger-bills"
          title={() => title(t('reports.ledger.bills'), check.bills.length, check.counts.bills)}
          rowKey="bill_id"
          dataSource={check.bills}
          columns={[
            { key: 'bill', title: t('reports.ledger.col.bill'), dataIndex: 'bill_id' },
            { key: 'bettor', title: t('reports.ledger.col.bettor'), dataIndex: 'bettor_id' },
            { key: 'account', title: t('reports.ledger.col.account'), dataIndex: 'account_kind', render: account },
            { key: 'type', title: t('reports.ledger.col.type'), dataIndex: 'type', render: billType },
            { key: 'before', title: t('reports.ledger.col.before'), dataIndex: 'balance_before', render: money },
            { key: 'amount', title: t('reports.ledger.col.amount'), dataIndex: 'amount', render: money },
            { key: 'after', title: t('reports.ledger.col.after'), dataIndex: 'balance_after', render: money },
          ]}
        />
      )}
      {check.counts.chains > 0 && (
        <Table
          {...common}
          data-testid="ledger-chains"
          title={() => title(t('reports.ledger.chains'), check.chains.length, check.counts.chains)}
          rowKey="bill_id"
          dataSource={check.chains}
          columns={[
            { key: 'bill', title: t('reports.ledger.col.bill'), dataIndex: 'bill_id' },
            { key: 'bettor', title: t('reports.ledger.col.bettor'), dataIndex: 'bettor_id' },
            { key: 'account', title: t('reports.ledger.col.account'), dataIndex: 'account_kind', render: account },
            { key: 'previous', title: t('reports.ledger.col.previousAfter'), dataIndex: 'previous_after', render: money },
            { key: 'before', title: t('reports.ledger.col.before'), dataIndex: 'balance_before', render: money },
          ]}
        />
      )}
      {check.counts.journal > 0 && (
        <Table
          {...common}
          data-testid="ledger-journal"
          title={() => title(t('reports.ledger.journal'), check.journal.length, check.counts.journal)}
          rowKey="txn_id"
          dataSource={check.journal}
          columns={[
            { key: 'txn', title: t('reports.ledger.col.txn'), dataIndex: 'txn_id' },
            { key: 'total', title: t('reports.ledger.col.total'), dataIndex: 'total', render: money },
          ]}
        />
      )}
    </div>
  );
}
