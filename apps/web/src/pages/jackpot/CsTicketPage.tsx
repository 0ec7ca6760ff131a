import { Input, Space } from 'antd';
import { csJackpotTicketListResource } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadError, PageHeader, QueryHint, RecordView, type ResourceView } from '../../resources';
import { jackpotView, pickSigns, TicketMatches, useTicket } from './shared';

const BASE = '/jackpot/cs/tickets';
const def = jackpotView(csJackpotTicketListResource as ResourceView, {
  picks: { render: (v) => (Array.isArray(v) ? v.map((m) => pickSigns(Number(m)) || '-').join(' · ') : '-') },
});

/**
 * Customer service › Jackpot ticket (cs_jackpot_bet): one ticket, read-only, by its ID (the CS ticket list
 * opens it here): its figures and each match's pick and result with hit or miss.
 */
export default function CsTicketPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const id = params.get('id') ?? '';
  const q = useTicket(BASE, /^\d+$/.test(id) ? id : undefined);
  return (
    <>
      <PageHeader
        title={t('menu.cs_jackpot_bet')}
        description={t('jackpot.describe.cs_jackpot_bet')}
        extra={
          <Input.Search
            key={id}
            defaultValue={id}
            inputMode="numeric"
            placeholder={t('jackpot.ticket.idPlaceholder')}
            enterButton={t('jackpot.share.open')}
            style={{ width: 260, maxWidth: '100%' }}
            data-testid="cs-ticket-id"
            onSearch={(v) => setParams(v.trim() ? { id: v.trim() } : {})}
          />
        }
      />
      {!/^\d+$/.test(id) ? (
        <QueryHint>{t('jackpot.ticket.idHint')}</QueryHint>
      ) : q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <Space orientation="vertical" size={8} style={{ width: '100%' }} data-testid="cs-ticket">
          {q.data && <RecordView fields={def.fields} record={q.data.ticket} column={2} />}
          <TicketMatches base={BASE} id={id} />
        </Space>
      )}
    </>
  );
}
