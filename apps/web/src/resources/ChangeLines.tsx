import type { ReactNode } from 'react';
import { Tag, Typography } from 'antd';
import * as declarations from '@dau/contract/ui';
import { fieldLabelKey, type FieldDef, type ResourceDef } from '@dau/contract/ui';
import { FieldValue } from './FieldValue';
import { useTranslation } from 'react-i18next';

/**
 * Changes of settings (issue 22) as an operator reads them: "field: before → after" lines (secrets stay
 * masked) and a pending change's status in the reader's language; used by the pending changes, the
 * settings history and every settings card's history.
 */

/** The declarations by name: a setting's fields say how to read its values (money in TSh, enums as words). */
const DECLARED = new Map(
  Object.values(declarations)
    .filter((v): v is ResourceDef => !!v && typeof v === 'object' && 'fields' in v && 'api' in v && 'name' in v)
    .map((d) => [d.name, d]),
);
const fieldOf = (setting: string | undefined, key: string): FieldDef | undefined => (setting ? DECLARED.get(setting)?.fields.find((f) => f.key === key) : undefined);

/** Labels of the fields of settings with no declaration of their own (hand-written settings routes). */
const OWN_LABELS: Record<string, string> = {
  username: 'duties.field.username',
  api_key: 'duties.field.api_key',
  sender_id: 'duties.field.sender_id',
  cost_per_segment_cents: 'duties.field.cost_per_segment_cents',
  rate_per_second: 'duties.field.rate_per_second',
  coin_rate_bps: 'duties.field.coin_rate_bps',
};

/** One value of a setting as the reader sees it: secrets stay masked, declared fields as their type says, the rest as compact JSON. */
export function SettingValue({ value, field }: { value: unknown; field?: FieldDef }) {
  const { t } = useTranslation();
  if (value === null || value === undefined || value === '') return <Typography.Text type="secondary">{t('duties.empty')}</Typography.Text>;
  if (value === '***') return <Tag>{t('duties.secret')}</Tag>;
  if (field && field.type !== 'json' && field.type !== 'image' && field.type !== 'images') return <FieldValue field={field} value={value} row={{}} variant="detail" />;
  if (typeof value === 'boolean') return <>{t(value ? 'duties.yes' : 'duties.no')}</>;
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return <Typography.Text code style={{ wordBreak: 'break-all' }}>{text.length > 200 ? `${text.slice(0, 200)}…` : text}</Typography.Text>;
}

/** A field's label: the resource layer's `field.<key>` when the console has it, else the key itself. */
export function useFieldLabel(setting?: string) {
  const { t } = useTranslation();
  return (key: string) => {
    if (key === '*') return t('duties.wholeRow');
    const f = fieldOf(setting, key);
    if (!f && OWN_LABELS[key]) return t(OWN_LABELS[key]);
    return t(fieldLabelKey(f ?? { key, type: 'text' }), { defaultValue: key });
  };
}

/** Lines of "field: before → after". */
export function ChangeLines({ rows, setting }: { rows: readonly { field: string; before: unknown; after: unknown }[]; setting?: string }) {
  const label = useFieldLabel(setting);
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
            <SettingValue value={v} field={fieldOf(setting, k)} />
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
          <SettingValue value={r.before} field={fieldOf(setting, r.field)} />
          <span aria-label={t('duties.becomes')}>→</span>
          <SettingValue value={r.after} field={fieldOf(setting, r.field)} />
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
