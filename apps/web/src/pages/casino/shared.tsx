import type { ReactNode } from 'react';
import { Tag, Typography } from 'antd';
import { formatTsh } from '@dau/domain';
import { areaView, enumColor, enumText, useLocale, type FieldView, type ResourceView } from '../../resources';

/**
 * A casino declaration for the console: the menu's title, the casino texts' description
 * (`casino.describe.<name>`), each field's label in the casino texts (`casino.field.<key>`), with the
 * console's hints (renderers, inputs, help lines) merged in.
 */
export function casinoView(def: ResourceView, hints: Record<string, Partial<FieldView>> = {}, extra: Partial<ResourceView> = {}): ResourceView {
  return areaView('casino', def, hints, extra);
}

const blank = (v: unknown) => v === null || v === undefined || v === '';

/** Basis points as a percentage with up to two decimals ("96.5 %"); blank stays a dash. */
export function usePercent() {
  const locale = useLocale();
  const fmt = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 });
  return (bps: unknown) => (blank(bps) || !Number.isFinite(Number(bps)) ? '-' : `${fmt.format(Number(bps) / 100)} %`);
}

/** Money in shillings from cents; blank stays a dash. */
export function useTsh() {
  const locale = useLocale();
  return (cents: unknown) => (blank(cents) ? '-' : formatTsh(Number(cents), locale));
}

/** Whole numbers with the operator's separators. */
export function useCount() {
  const locale = useLocale();
  const fmt = new Intl.NumberFormat(locale);
  return (n: unknown) => (blank(n) ? '-' : fmt.format(Number(n)));
}

/** Money whose sign matters (net, GGR): red below zero, green above. */
export function SignedTsh({ cents, testId }: { cents: unknown; testId?: string }) {
  const tsh = useTsh();
  const n = Number(cents);
  return (
    <Typography.Text type={!Number.isFinite(n) || n === 0 ? undefined : n < 0 ? 'danger' : 'success'} style={{ whiteSpace: 'nowrap' }} data-testid={testId}>
      {tsh(cents)}
    </Typography.Text>
  );
}

/** An enumeration value as a coloured tag in the operator's language. */
export function EnumTag({ name, value, testId, color }: { name: string; value: unknown; testId?: string; color?: string }) {
  const locale = useLocale();
  if (blank(value)) return <>-</>;
  return (
    <Tag color={color ?? enumColor(name, value)} data-testid={testId}>
      {enumText(name, value, locale)}
    </Tag>
  );
}

/** Round status (1 open, 2 completed, 3 rolled back): blue, green, red whatever the label. */
export const ROUND_STATUS_COLOR: Record<number, string> = { 1: 'blue', 2: 'green', 3: 'red' };

export function RoundStatus({ value, testId }: { value: unknown; testId?: string }) {
  return <EnumTag name="casino_round_status" value={value} color={ROUND_STATUS_COLOR[Number(value)]} testId={testId} />;
}

/** The operator's day (Africa/Dar_es_Salaam, UTC+3) of an instant, as YYYY-MM-DD. */
export const darDay = (ms: number = Date.now()) => new Date(ms + 3 * 3_600_000).toISOString().slice(0, 10);

/** A CSV file built in the browser (a UTF-8 BOM so that spreadsheets read the Swahili and Chinese headers). */
export function downloadCsv(rows: readonly (readonly string[])[], name: string) {
  const body = rows.map((cells) => cells.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',')).join('\n');
  const url = URL.createObjectURL(new Blob(['\ufeff', body, '\n'], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A line of small secondary text under a value. */
export const Sub = ({ children }: { children: ReactNode }) => (
  <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
    {children}
  </Typography.Text>
);
