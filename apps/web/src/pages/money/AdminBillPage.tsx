import { Tabs } from 'antd';
import { adminBillResource } from '@dau/contract/ui';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PageHeader, ResourceList, resourceTexts } from '../../resources';
import { AgentStatement } from './AgentStatement';
import { useAdminPickers } from './shared';

const TABS = ['bills', 'statement'] as const;
type Tab = (typeof TABS)[number];

/**
 * Users › Admin bills: the balance changes made by administrators, and each agent's statement with their
 * share ratio (two tabs; the tab is in the URL so a link reproduces the view).
 */
export default function AdminBillPage() {
  const { t } = useTranslation();
  const def = useAdminPickers(adminBillResource);
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'statement' ? 'statement' : 'bills';
  const texts = resourceTexts(def);
  const select = (key: string) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (key === 'bills') next.delete('tab');
      else next.set('tab', key);
      return next;
    });

  return (
    <>
      <PageHeader title={t(texts.title)} description={t(texts.description)} />
      <Tabs
        activeKey={tab}
        onChange={select}
        destroyOnHidden
        items={[
          { key: 'bills', label: <span data-testid="admin-bill-tab-bills">{t('money.adminBill.bills')}</span>, children: <ResourceList def={def} showHeader={false} /> },
          { key: 'statement', label: <span data-testid="admin-bill-tab-statement">{t('money.adminBill.statement')}</span>, children: <AgentStatement /> },
        ]}
      />
    </>
  );
}
