import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { areaView, useFeedback, useLocale, type FieldView, type ResourceView, type Row } from '../../resources';
import { formatAsset, toUnits, type Asset } from './units';

/**
 * What the TRON screens share: the view of a declaration (menu title, tron texts), addresses and hashes
 * with a copy button, amounts in USDT / TRX (integers of 6 decimals, pages/tron/units.ts) and the state
 * tags. The ids mirror apps/server/src/modules/tron/schema.ts.
 */

/** TRON_WALLET_ROLE: 1 deposit, 2 collection / hot, 3 gas. */
export const WALLET_ROLE = { deposit: 1, collection: 2, gas: 3 } as const;
/** TRON_TRANSFER_STATUS: 1 seen, 2 confirmed / credited, 3 failed, 4 reorganised. */
export const TRANSFER_STATUS = { seen: 1, confirmed: 2, failed: 3, reorganised: 4 } as const;
/** TRON_SWEEP_STATUS: 1 pending, 2 success, 3 failed, 4 unknown (to reconcile). */
export const SWEEP_STATUS = { pending: 1, success: 2, failed: 3, unknown: 4 } as const;

const nameOf = <T extends Record<string, number>>(map: T, id: unknown): keyof T | undefined =>
  (Object.keys(map) as (keyof T)[]).find((k) => map[k] === Number(id));

const ROLE_COLOR: Record<string, string> = { deposit: 'blue', collection: 'gold', gas: 'purple' };
const TRANSFER_COLOR: Record<string, string> = { seen: 'processing', confirmed: 'success', failed: 'error', reorganised: 'warning' };
const SWEEP_COLOR: Record<string, string> = { pending: 'processing', success: 'success', failed: 'error', unknown: 'warning' };

/** The text keys of the ids and codes (literal, so the key checks see them). */
export const TEXTS = {
  role: { deposit: 'tron.role.deposit', collection: 'tron.role.collection', gas: 'tron.role.gas' },
  transferStatus: { seen: 'tron.transferStatus.seen', confirmed: 'tron.transferStatus.confirmed', failed: 'tron.transferStatus.failed', reorganised: 'tron.transferStatus.reorganised' },
  /** A confirmed transfer as its direction makes it: a deposit credited, an outgoing transfer sent. */
  confirmedAs: { in: 'tron.transferStatus.credited', out: 'tron.transferStatus.sent' },
  sweepStatus: { pending: 'tron.sweepStatus.pending', success: 'tron.sweepStatus.success', failed: 'tron.sweepStatus.failed', unknown: 'tron.sweepStatus.unknown' },
  kind: { collect: 'tron.kind.collect', gas: 'tron.kind.gas', withdrawal: 'tron.kind.withdrawal' },
  direction: { in: 'tron.direction.in', out: 'tron.direction.out' },
} as const;

const textOf = (group: keyof typeof TEXTS, name: string): string | undefined => (TEXTS[group] as Record<string, string>)[name];

/** Lists refreshed after a wallet action (the sweeps and transfers it may have made). */
export const TRON_LISTS = [['tron'], ['tron_transaction_summary'], ['usdt_transaction_record'], ['tron-reconcile'], ['tron-balance']];

/**
 * A TRON declaration for the console: the menu's title, the tron texts' description, each field's label in
 * the tron texts (`tron.field.<key>`), with the screen's hints merged in.
 */
export function tronView(def: ResourceView, hints: Record<string, Partial<FieldView>> = {}, extra: Partial<ResourceView> = {}): ResourceView {
  return areaView('tron', def, hints, extra);
}

/** Options of a select over a map of ids (labels `tron.<group>.<name>`). */
export function useOptions(group: 'role' | 'transferStatus' | 'sweepStatus', map: Record<string, number>) {
  const { t } = useTranslation();
  return Object.entries(map).map(([name, value]) => ({ value, label: t(textOf(group, name) ?? name) }));
}

export function RoleTag({ role }: { role: unknown }) {
  const { t } = useTranslation();
  const name = nameOf(WALLET_ROLE, role);
  if (!name) return <>{String(role ?? '-')}</>;
  return (
    <Tag color={ROLE_COLOR[name]} data-testid={`role-${name}`}>
      {t(TEXTS.role[name])}
    </Tag>
  );
}

/** A transfer's state; a confirmed one reads "Credited" when it came in and "Sent" when it went out. */
export function TransferStatusTag({ status, direction }: { status: unknown; direction?: unknown }) {
  const { t } = useTranslation();
  const name = nameOf(TRANSFER_STATUS, status);
  if (!name) return <>{String(status ?? '-')}</>;
  const as = name === 'confirmed' ? (direction === 'out' ? 'out' : direction === 'in' ? 'in' : undefined) : undefined;
  return (
    <Tag color={TRANSFER_COLOR[name]} data-testid={`transfer-status-${as === 'out' ? 'sent' : as === 'in' ? 'credited' : name}`}>
      {t(as ? TEXTS.confirmedAs[as] : TEXTS.transferStatus[name])}
    </Tag>
  );
}

export function SweepStatusTag({ status }: { status: unknown }) {
  const { t } = useTranslation();
  const name = nameOf(SWEEP_STATUS, status);
  if (!name) return <>{String(status ?? '-')}</>;
  return (
    <Tag color={SWEEP_COLOR[name]} data-testid={`sweep-status-${name}`}>
      {t(TEXTS.sweepStatus[name])}
    </Tag>
  );
}

/** A text code (kind, direction) in the tron texts, e.g. `tron.kind.collect`. */
export function CodeTag({ group, value, colors }: { group: 'kind' | 'direction'; value: unknown; colors?: Record<string, string> }) {
  const { t } = useTranslation();
  if (value === null || value === undefined || value === '') return <>-</>;
  const v = String(value);
  const key = textOf(group, v);
  return <Tag color={colors?.[v]}>{key ? t(key) : v}</Tag>;
}

/** An amount in USDT or TRX: right decimals, tabular digits, a debit in the error colour. */
export function Amount({ value, asset, testId, strong }: { value: unknown; asset: Asset | string; testId?: string; strong?: boolean }) {
  const locale = useLocale();
  const n = toUnits(value);
  if (n === null) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Typography.Text type={n < 0n ? 'danger' : undefined} strong={strong} style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }} data-testid={testId}>
      {formatAsset(n, asset, locale)}
    </Typography.Text>
  );
}

/** "TXYZab…k7Pq": the first and last characters of a long code (an address, a hash). */
export const shorten = (s: string, head = 6, tail = 6) => (s.length > head + tail + 1 ? `${s.slice(0, head)}…${s.slice(-tail)}` : s);

/**
 * An address, hash or key in monospace with a copy button ("Copied successfully"): shortened in a table
 * (the whole value in a tooltip), whole in the detail drawer.
 */
export function Code({ value, full, copyLabel, testId }: { value: unknown; full?: boolean; copyLabel?: string; testId?: string }) {
  const { t } = useTranslation();
  const { ok } = useFeedback();
  if (value === null || value === undefined || value === '') return <Typography.Text type="secondary">-</Typography.Text>;
  const s = String(value);
  const label = copyLabel ?? t('tron.wallet.copy');
  const text = (
    <Typography.Text
      code
      copyable={{ text: s, onCopy: () => ok('COPIED'), tooltips: [label, label] }}
      style={full ? { wordBreak: 'break-all', fontSize: 12 } : { whiteSpace: 'nowrap', fontSize: 12 }}
      data-testid={testId}
    >
      {full ? s : shorten(s)}
    </Typography.Text>
  );
  return full ? text : <Tooltip title={<span style={{ wordBreak: 'break-all' }}>{s}</span>}>{text}</Tooltip>;
}

/** The hint of a code field: shortened with a copy button in the table, whole in the drawer. */
export const codeHint = (copyLabel?: string): Partial<FieldView> => ({
  render: (v: unknown, row: Row) => <CodeCell value={v} row={row} copyLabel={copyLabel} />,
});

/** Decides table or drawer by where it is drawn: inside the drawer's field list (Descriptions) it shows whole. */
function CodeCell({ value, copyLabel }: { value: unknown; row: Row; copyLabel?: string }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [whole, setWhole] = useState(false);
  useLayoutEffect(() => {
    if (ref.current?.closest('.ant-descriptions')) setWhole(true);
  }, []);
  return (
    <span ref={ref}>
      <Code value={value} full={whole} copyLabel={copyLabel} />
    </span>
  );
}

/** A time with a line under it (e.g. "Removed" and when). */
export function Stacked({ top, bottom }: { top: ReactNode; bottom?: ReactNode }) {
  return (
    <div>
      <div>{top}</div>
      {bottom && (
        <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
          {bottom}
        </Typography.Text>
      )}
    </div>
  );
}
