import type { ReactNode } from 'react';
import { ExportOutlined } from '@ant-design/icons';
import { Button, Tag, Tooltip, Typography } from 'antd';
import { formatTsh } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAccess } from '../../../kit/access';
import { formatDateTime, useLocale, type Row } from '../../../resources';

/** The colour of an event's kind: results and money blue or gold, security red, settings purple, the feed orange. */
const KIND_COLOR: Record<string, string> = {
  manual_result: 'blue', result_change: 'geekblue', void: 'volcano', resettlement: 'cyan', rollback: 'orange',
  odds_change: 'purple', market_change: 'purple', suspension: 'magenta', match_cancel: 'volcano', setting_change: 'purple', producer_down: 'orange',
  privileged_sign_in: 'gold', sign_in_burst: 'red', balance_correction: 'gold', large_win: 'green',
  large_withdrawal_approved: 'green', large_withdrawal_refused: 'red',
};

/** An event's kind as a coloured tag in the operator's language. */
export function KindTag({ kind }: { kind: unknown }) {
  const { t } = useTranslation();
  const k = String(kind);
  return <Tag color={KIND_COLOR[k]}>{t(`audit.kind.${k}`, { defaultValue: k })}</Tag>;
}

/** The details an event's summary shows, in this order (the rest stays in the drawer's JSON). */
const SHOWN = [
  'reason', 'source', 'market', 'selection', 'setting', 'action', 'suspended', 'approved_by', 'account', 'ip', 'failures', 'minutes', 'serial',
  'first_approver', 'product', 'round_id', 'bet_total', 'producer', 'name', 'state', 'reason_code',
] as const;
/** Parameters whose values are words the console translates. */
const WORDS = new Set(['source', 'product', 'state', 'suspended', 'reason_code']);

/** The match control a settings-history address names (`/sports/matches/:id/live-delay` → live delay). */
const ACTIONS = ['visibility', 'live-delay', 'random-bet', 'ranking', 'maintenance'];
const actionOf = (url: unknown) => {
  const last = String(url ?? '').split('/').pop() ?? '';
  return ACTIONS.includes(last) ? last : 'other';
};

/** The parameters of an event as the summary shows them (money in TSh, codes as words). */
function summaryParts(row: Row): Record<string, unknown> {
  const p = { ...((row.params as Record<string, unknown> | null) ?? {}) };
  if (row.kind === 'market_change') p.action = actionOf(p.url);
  if (row.kind === 'large_win' && p.product === 'casino') p.reason_code = p.reason;
  if (row.kind === 'large_win') delete p.reason;
  if (typeof p.suspended === 'boolean') p.suspended = p.suspended ? 'yes' : 'no';
  return p;
}

/** What happened, in one line: "Reason: … · Market: …". */
export function EventSummary({ row }: { row: Row }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const p = summaryParts(row);
  const parts: ReactNode[] = [];
  for (const key of SHOWN) {
    const v = p[key];
    if (v === null || v === undefined || v === '') continue;
    let shown: string;
    if (key === 'bet_total') shown = formatTsh(Number(v), locale);
    else if (key === 'action') shown = t(`audit.action.${String(v)}`, { defaultValue: String(v) });
    else if (key === 'setting') shown = t(`duties.setting.${String(v)}`, { defaultValue: String(v) });
    else if (WORDS.has(key)) shown = t(`audit.value.${String(v)}`, { defaultValue: String(v) });
    else shown = String(v);
    parts.push(
      <span key={key}>
        <Typography.Text type="secondary">{t(`audit.param.${key}`)}:</Typography.Text> {shown}
      </span>,
    );
  }
  if (row.kind === 'producer_down')
    parts.push(
      <span key="up">
        <Typography.Text type="secondary">{t('audit.param.up_at')}:</Typography.Text> {p.up_at ? formatDateTime(String(p.up_at)) : t('audit.param.still_down')}
      </span>,
    );
  if (!parts.length) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <span style={{ display: 'inline-flex', flexWrap: 'wrap', columnGap: 10 }}>
      {parts}
    </span>
  );
}

/** Where an event's link goes: the screen (catalogue page) and its query, and the page whose permission it needs. */
function targetOf(row: Row): { page: string; query: Record<string, string>; label: string } | null {
  const id = String(row.target_id ?? '');
  if (!id) return null;
  switch (row.target_kind) {
    case 'order':
      return { page: 'order_detailed', query: { id }, label: 'audit.open.order' };
    case 'bettor':
      return { page: 'user', query: { id, open: id }, label: 'audit.open.bettor' };
    case 'match':
      return { page: 'significant_events', query: { event_id: id }, label: 'audit.open.match' };
    case 'withdrawal':
      return { page: 'withdraw_list', query: { serial_number: id }, label: 'audit.open.withdrawal' };
    case 'casino_round':
      return { page: 'casino_order_details', query: { id }, label: 'audit.open.casino_round' };
    case 'setting':
      return { page: 'setting_history', query: { setting: id }, label: 'audit.open.setting' };
    case 'account':
      return { page: 'administrators', query: { account: id }, label: 'audit.open.account' };
    default:
      return null;
  }
}

/** The link of an event to what it is about (an order, a bettor, a match, a withdrawal...), when the admin may open it. */
export function TargetLink({ row }: { row: Row }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { can, hasScreen } = useAccess();
  const target = targetOf(row);
  if (!target || !hasScreen(target.page) || !can(target.page)) return null;
  const label = t(target.label);
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        icon={<ExportOutlined />}
        aria-label={label}
        data-testid={`event-open-${String(row.id)}`}
        onClick={() => navigate(`/customer/${target.page}?${new URLSearchParams(target.query).toString()}`)}
      />
    </Tooltip>
  );
}
