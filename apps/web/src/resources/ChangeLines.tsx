import type { ReactNode } from 'react';
import { Tag, Typography } from 'antd';
import { fieldLabelKey } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';

/**
 * Changes of settings (issue 22) as an operator reads them: "field: before → after" lines (secrets stay
 * masked) and a pending change's status in the reader's language; used by the pending changes, the
 * settings history and every settings card's history.
 */

/** One value of a setting as the reader sees it: secrets stay masked, objects as compact JSON. */
export function SettingValue({ value }: { value: unknown }) {
  const { t } = useTranslation();
  if (value === null || value === undefined || value === '') return <Typography.Text type="secondary">{t('duties.empty')}</Typography.Text>;
  if (value === '***') return <Tag>{t('duties.secret')}</Tag>;
  if (typeof value === 'boolean') return <>{t(value ? 'duties.yes' : 'duties.no')}</>;
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return <Typography.Text code style={{ wordBreak: 'break-all' }}>{text.length > 200 ? `${text.slice(0, 200)}…` : text}</Typography.Text>;
}

/** A field's label: the resource layer's `field.<key>` when the console has it, else the key itself. */
export function useFieldLabel() {
  const { t } = useTranslation();
  return (key: string) => (key === '*' ? t('duties.wholeRow') : t(fieldLabelKey({ key, type: 'text' }), { defaultValue: key }));
}

/** Lines of "field: before → after". */
export function ChangeLines({ rows }: { rows: readonly { field: string; before: unknown; after: unknown }[] }) {
  const label = useFieldLabel();
  const { t } = useTranslation();
  if (!rows.length) return <Typography.Text type="secondary">{t('duties.noChange')}</Typography.Text>;
  // A removal: what goes, as its fields (not a JSON blob).
  const only = rows.length === 1 ? rows[0]! : null;
  if (only && only.field === '*' && only.after === null && only.before && typeof only.before === 'object' && !Array.isArray(only.before)) {
    const gone = Object.entries(only.before as Record<string, unknown>).filter(([k]) => !['id', 'created_at', 'updated_at'].includes(k));
    return (
      <div data-testid="change-lines" style={{ display: 'grid', gap: 4 }}>
        <Typography.Text strong type="danger">{t('duties.removal')}</Typography.Text>
        {gone.map(([k, v]) => (
          <div key={k} style={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
            <Typography.Text>{label(k)}:</Typography.Text>
            <SettingValue value={v} />
          </div>
        ))}
      </div>
    );
  }
  return (
    <div data-testid="change-lines" style={{ display: 'grid', gap: 4 }}>
      {rows.map((r) => (
        <div key={r.field} style={{ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'baseline' }}>
          <Typography.Text strong>{label(r.field)}:</Typography.Text>
          <SettingValue value={r.before} />
          <span aria-label={t('duties.becomes')}>→</span>
          <SettingValue value={r.after} />
        </div>
      ))}
    </div>
  );
}

/** The fields a history row changed: keys of before or after whose values differ (both objects), else the whole value. */
export function historyLines(before: unknown, after: unknown): { field: string; before: unknown; after: unknown }[] {
  const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(before) || !isObj(after)) return [{ field: '*', before, after }];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => k !== 'updated_at' && k !== 'id');
  return keys.filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])).map((k) => ({ field: k, before: before[k], after: after[k] }));
}

const STATUS_COLORS: Record<string, string> = {
  pending: 'gold', applying: 'processing', applied: 'green', failed: 'red', refused: 'red', withdrawn: 'default', expired: 'default',
};

export function ChangeStatus({ status }: { status: string }): ReactNode {
  const { t } = useTranslation();
  return <Tag color={STATUS_COLORS[status] ?? 'default'} data-testid={`change-status-${status}`}>{t(`duties.status.${status}`, { defaultValue: status })}</Tag>;
}
