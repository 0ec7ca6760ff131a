import { useState, type ComponentType } from 'react';
import { FileSearchOutlined } from '@ant-design/icons';
import { Button, Input, Tooltip } from 'antd';
import { useNavigate } from 'react-router';
import type { ResourceDef } from '@dau/contract';
import { csJackpotTicketListResource, jackpotBetTypeResource, jackpotShareResource, jackpotTicketListResource } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../kit/access';
import { ResourcePage, type FieldView, type ResourceView, type Row } from '../../resources';
import { ShareDialog, ShareMatches } from './ShareDialog';
import { TiersInput, tiersRule, TiersValue } from './TiersInput';
import { jackpotView, pickSigns, TicketMatches } from './shared';

/** Each bet type field's reading (design "Readings"), shown under its input. */
const HELP: Record<string, string> = {
  type: 'jackpot.help.type',
  reward_type: 'jackpot.help.reward_type',
  tiers: 'jackpot.help.tiers',
  pool_rate_bps: 'jackpot.help.pool_rate_bps',
  bet_amount: 'jackpot.help.bet_amount',
  incentives: 'jackpot.help.incentives',
  init_jackpot: 'jackpot.help.init_jackpot',
  max_add_balance: 'jackpot.help.max_add_balance',
  max_range_odds: 'jackpot.help.max_range_odds',
  odds_rise_step: 'jackpot.help.odds_rise_step',
  guess_number: 'jackpot.help.guess_number',
  max_doubles: 'jackpot.help.max_doubles',
  max_triples: 'jackpot.help.max_triples',
  allow_bonus: 'jackpot.help.allow_bonus',
  cancel_rule: 'jackpot.help.cancel_rule',
  cancel_void_threshold: 'jackpot.help.cancel_void_threshold',
  enabled: 'jackpot.help.enabled',
};

/** Basis points as a percentage ("50 %"). */
const percent = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : `${Number(v) / 100} %`);

/** Jackpot › Bet types: the declaration, with the readings under the inputs and a tiers editor. */
function BetTypeScreen() {
  const { t } = useTranslation();
  const hints: Record<string, Partial<FieldView>> = Object.fromEntries(Object.entries(HELP).map(([k, help]) => [k, { help }]));
  hints.tiers = { ...hints.tiers, input: () => <TiersInput />, rules: [tiersRule(t)], render: (v) => <TiersValue value={v} /> };
  hints.pool_rate_bps = { ...hints.pool_rate_bps, render: percent };
  const def = jackpotView(jackpotBetTypeResource, hints);
  return <ResourcePage def={def} detailColumns={2} />;
}

const ticketHints: Record<string, Partial<FieldView>> = {
  picks: { render: (v) => (Array.isArray(v) ? v.map((m) => pickSigns(Number(m)) || '-').join(' · ') : '-') },
  serial_number: { keep: true },
  status: { keep: true },
};

/** Where a ticket list's detail comes from, and the permission that route checks. */
const DETAIL: Record<string, { base: string; page: string; button?: string }> = {
  jackpot_bet_list: { base: '/jackpot/tickets', page: 'jackpot_bet_list', button: 'detail' },
  cs_jackpot_bet_list: { base: '/jackpot/cs/tickets', page: 'cs_jackpot_bet' },
};

/**
 * A ticket list (jackpot_bet_list, and read-only cs_jackpot_bet_list): the filters (issue, phone, status,
 * hits...), the table and a drawer with the ticket's fields and each match's pick and result (hit or
 * miss) where the admin may read the detail. Nothing changes a ticket here.
 */
const tickets = (source: ResourceView | ResourceDef): ComponentType =>
  function TicketListScreen() {
    const { t } = useTranslation();
    const { can, hasScreen } = useAccess();
    const def = jackpotView(source as ResourceView, ticketHints, { fetchDetail: false });
    const detail = DETAIL[def.name];
    const mayRead = !!detail && can(detail.page, detail.button);
    return (
      <ResourcePage
        def={def}
        detailColumns={2}
        detailTitle={(row) => t('jackpot.ticket.title', { serial: String(row.serial_number ?? row.id) })}
        detailExtra={(row) => (mayRead ? <TicketMatches base={detail.base} id={row.id} /> : null)}
        rowActions={def.name === 'cs_jackpot_bet_list' && mayRead && hasScreen('cs_jackpot_bet') ? (row) => <TicketLink id={row.id} /> : undefined}
      />
    );
  };

/** Opens a ticket on the customer-service ticket screen. */
function TicketLink({ id }: { id: unknown }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Tooltip title={t('jackpot.ticket.open')}>
      <Button
        type="text"
        size="small"
        icon={<FileSearchOutlined />}
        aria-label={t('jackpot.ticket.open')}
        data-testid={`ticket-open-${String(id)}`}
        onClick={() => navigate(`/customer/cs_jackpot_bet?id=${encodeURIComponent(String(id))}`)}
      />
    </Tooltip>
  );
}

/** Jackpot › Shared slips: code, owner, copies and the stake they brought; a slip opens by its code. */
function ShareScreen() {
  const { t } = useTranslation();
  const [code, setCode] = useState<string | null>(null);
  const def = jackpotView(jackpotShareResource, {}, { fetchDetail: false });
  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      detailTitle={(row: Row) => t('jackpot.share.title', { code: String(row.code ?? '') })}
      detailExtra={(row: Row) => <ShareMatches code={String(row.code)} />}
      toolbar={() => (
        <Input.Search
          placeholder={t('jackpot.share.openPlaceholder')}
          enterButton={t('jackpot.share.open')}
          allowClear
          style={{ width: 280, maxWidth: '100%' }}
          data-testid="share-open-code"
          onSearch={(v) => v.trim() && setCode(v.trim())}
        />
      )}
    >
      <ShareDialog code={code} onClose={() => setCode(null)} />
    </ResourcePage>
  );
}

/** The jackpot screens that are one declaration each (packages/contract/src/jackpot-resources.ts). */
export const screens: Record<string, ComponentType> = {
  jackpot_bet_type: BetTypeScreen,
  jackpot_bet_list: tickets(jackpotTicketListResource),
  cs_jackpot_bet_list: tickets(csJackpotTicketListResource),
  super_list: ShareScreen,
};
