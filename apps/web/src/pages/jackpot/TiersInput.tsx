import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, InputNumber, Space, Tag, Typography, type FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { MATCHES } from './shared';

/** One prize tier as the bet type stores it: the exact number of hits and its share of the pool in basis points. */
export interface Tier {
  hits: number | null;
  proportion_bps: number | null;
}

/** The JSON text of the field -> rows (unreadable text: no rows, the rule says why). */
export function parseTiers(value: unknown): Tier[] | null {
  if (Array.isArray(value)) return value as Tier[];
  if (typeof value !== 'string' || !value.trim()) return [];
  try {
    const v = JSON.parse(value) as unknown;
    return Array.isArray(v) ? (v as Tier[]) : null;
  } catch {
    return null;
  }
}

/** Whether the tiers are complete: hits 1..13 distinct, each a share, the shares adding up to at most 100 %. */
export function tiersValid(tiers: Tier[] | null): boolean {
  if (!tiers || !tiers.length) return false;
  const hits = tiers.map((t) => t.hits);
  if (hits.some((h) => h === null || !Number.isInteger(h) || h < 1 || h > MATCHES)) return false;
  if (new Set(hits).size !== hits.length) return false;
  if (tiers.some((t) => t.proportion_bps === null || !Number.isInteger(t.proportion_bps) || t.proportion_bps < 0)) return false;
  return tiers.reduce((s, t) => s + (t.proportion_bps ?? 0), 0) <= 10_000;
}

/** The form rule of the tiers (the server checks the same and answers JACKPOT_TIERS_INVALID). */
export const tiersRule = (t: TFunction): FormRule => ({
  validator: async (_r, v: unknown) => {
    if (!tiersValid(parseTiers(v))) throw new Error(t('jackpot.tiers.invalid'));
  },
});

/**
 * The prize tiers as rows of "hits" and "percentage of the pool" instead of JSON text. The value stays the
 * field's JSON text (what the declaration sends); percentages are typed with two decimals and kept in bps.
 */
export function TiersInput({ value, onChange, disabled }: { value?: string; onChange?: (v: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const rows = parseTiers(value) ?? [];
  const set = (next: Tier[]) => onChange?.(JSON.stringify(next));
  const total = rows.reduce((s, r) => s + (r.proportion_bps ?? 0), 0);
  const nextHits = () => {
    const used = new Set(rows.map((r) => r.hits));
    for (let h = MATCHES; h >= 1; h--) if (!used.has(h)) return h;
    return null;
  };
  return (
    <div data-testid="tiers-input">
      <Space orientation="vertical" size={6} style={{ width: '100%' }}>
        {rows.map((r, i) => (
          <Flex key={i} gap={8} align="center" wrap>
            <InputNumber
              aria-label={t('jackpot.tiers.hits')}
              addonAfter={t('jackpot.tiers.hitsUnit')}
              min={1}
              max={MATCHES}
              precision={0}
              value={r.hits}
              disabled={disabled}
              style={{ width: 150 }}
              data-testid={`tier-hits-${i}`}
              onChange={(h) => set(rows.map((x, j) => (j === i ? { ...x, hits: h } : x)))}
            />
            <InputNumber
              aria-label={t('jackpot.tiers.share')}
              addonAfter="%"
              min={0}
              max={100}
              step={0.5}
              precision={2}
              value={r.proportion_bps === null ? null : r.proportion_bps / 100}
              disabled={disabled}
              style={{ width: 150 }}
              data-testid={`tier-share-${i}`}
              onChange={(p) => set(rows.map((x, j) => (j === i ? { ...x, proportion_bps: p === null ? null : Math.round(Number(p) * 100) } : x)))}
            />
            <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('jackpot.tiers.remove')} disabled={disabled} onClick={() => set(rows.filter((_, j) => j !== i))} />
          </Flex>
        ))}
        <Flex gap={12} align="center" wrap>
          <Button icon={<PlusOutlined />} size="small" disabled={disabled || rows.length >= MATCHES} onClick={() => set([...rows, { hits: nextHits(), proportion_bps: 0 }])} data-testid="tier-add">
            {t('jackpot.tiers.add')}
          </Button>
          <Typography.Text type={total > 10_000 ? 'danger' : 'secondary'} data-testid="tiers-total">
            {t('jackpot.tiers.total', { percent: total / 100 })}
          </Typography.Text>
        </Flex>
      </Space>
    </div>
  );
}

/** The tiers in a list or drawer: "13 hits · 60 %". */
export function TiersValue({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const rows = parseTiers(value);
  if (!rows || !rows.length) return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Flex gap={4} wrap>
      {rows.map((r, i) => (
        <Tag key={i}>{t('jackpot.tiers.tag', { hits: r.hits ?? '-', percent: (r.proportion_bps ?? 0) / 100 })}</Tag>
      ))}
    </Flex>
  );
}
