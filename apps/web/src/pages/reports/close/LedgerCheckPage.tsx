import { useState } from 'react';
import { Alert, App, Empty } from 'antd';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { LedgerCheckAnswer } from '@dau/contract/ui';
import { api } from '../../../kit/api';
import { ActionButton, PageHeader, Panel, formatDateTime, useFeedback } from '../../../resources';
import { LedgerProblems } from './LedgerProblems';

const PAGE = 'ledger_check';

/**
 * Reports › Ledger self-check (issue 30): the ledger's invariants run on demand (POST
 * /reports/ledger_check/run): every balance equals the sum of its bills, bills chain, the journal sums to
 * zero. Shows that the ledger is consistent, or each offending row (which bettor, by how much).
 */
export default function LedgerCheckPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { fail } = useFeedback();
  const [result, setResult] = useState<LedgerCheckAnswer | null>(null);

  const run = async () => {
    try {
      const r = await api.post<LedgerCheckAnswer>('/reports/ledger_check/run', {});
      setResult(r);
      if (r.ok) void message.success(t('reports.ledger.ok'));
      else void message.warning(t('reports.ledger.toastBad', { n: r.problems }), 6);
    } catch (err) {
      fail(err);
    }
  };

  return (
    <div data-testid="ledger-check">
      <PageHeader
        title={t('menu.ledger_check')}
        description={t('reports.ledger.description')}
        extra={<ActionButton action="run" page={PAGE} type="primary" icon={<SafetyCertificateOutlined />} onClick={run} testId="ledger-check-run" />}
      />
      <Panel>
        {!result ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('reports.ledger.notRun')} data-testid="ledger-check-empty" />
        ) : result.ok ? (
          <Alert
            type="success"
            showIcon
            data-testid="ledger-check-ok"
            title={t('reports.ledger.ok')}
            description={t('reports.ledger.okSub', { time: formatDateTime(result.checked_at), ms: result.duration_ms })}
          />
        ) : (
          <>
            <Alert
              type="error"
              showIcon
              data-testid="ledger-check-bad"
              style={{ marginBottom: 16 }}
              title={t('reports.ledger.bad', { n: result.problems })}
              description={t('reports.ledger.badSub', { time: formatDateTime(result.checked_at), ms: result.duration_ms, limit: result.limit })}
            />
            <LedgerProblems check={result} />
          </>
        )}
      </Panel>
    </div>
  );
}
