import { useMemo } from 'react';
import { InputNumber, Space, Tag, Typography, type FormRule, type InputNumberProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { CASINO_ROUND_FIELDS, CASINO_GAME_KINDS, gameReportResource, userReportResource, type FieldDef } from '@dau/contract/ui';
import { api, type ListAnswer } from '../../kit/api';
import { useAccess } from '../../kit/access';
import type { FieldView, Option, ResourceView, Row } from '../../resources';
import { casinoView, RoundStatus, SignedTsh, usePercent } from './shared';

/** Colours of a wallet transaction's kind. */
export const TRANSACTION_KIND_COLOR: Record<string, string> = { bet: 'blue', win: 'green', rollback: 'orange' };

/** The round fields (contract CASINO_ROUND_FIELDS) with casino labels, the status as a coloured tag and the net signed. */
export function roundFields(): FieldView[] {
  return casinoView({ name: 'casino_order', page: 'casino_order', api: '/casino/rounds', kind: 'list', actions: [], fields: CASINO_ROUND_FIELDS }, {
    status: { keep: true, render: (v, row) => <RoundStatus value={v} testId={`round-status-${String(row.id)}`} /> },
    net: { render: (v) => <SignedTsh cents={v} /> },
    round_ref: { keep: true },
    // The names stand for them in the detail (the ids stay filters).
    provider_id: { detail: false },
    game_id: { detail: false },
  }).fields.map((f) => ({ ...f }));
}

// ------------------------------------------------------------------------------------------ choices

/** Rows of a list route for choices (first 200, by id), or nothing when the admin may not read it. */
function useChoices(apiPath: string, page: string, label: (r: Row) => string, enabled = true) {
  const { can } = useAccess();
  const allowed = enabled && can(page);
  const q = useQuery({
    queryKey: [page, 'choices', apiPath],
    queryFn: () => api.get<ListAnswer<Row>>(apiPath, { page: 1, page_size: 200, sort: 'id' }),
    enabled: allowed,
    staleTime: 30_000,
    retry: false,
  });
  return useMemo<Option[] | undefined>(() => q.data?.items.map((r) => ({ value: Number(r.id), label: label(r) })), [q.data, label]);
}

const providerLabel = (r: Row) => `${String(r.name ?? r.code)}${r.code && r.name !== r.code ? ` (${String(r.code)})` : ''}`;
const gameLabel = (r: Row) => `${String(r.name ?? r.game_code)} · ${String(r.game_code ?? '')}`;

/** The category's name in the operator's language. */
export function categoryName(r: Row, language: string): string {
  const name = language === 'sw-KE' ? r.name_sw : language === 'zh-CN' ? r.name_zh : r.name_en;
  return String(name || r.name_en || r.id);
}

export const useProviderChoices = () => useChoices('/casino/providers', 'casino_config', providerLabel);
export const useGameChoices = () => useChoices('/casino/games', 'casino_list', gameLabel);
export function useCategoryChoices() {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  const label = useMemo(() => (r: Row) => categoryName(r, lang), [lang]);
  return useChoices('/casino/categories', 'casino_classification', label);
}

/** A numeric id field as a choice among `options` (the table shows the label); as it is when the choices are unknown. */
export const asChoice = (options: Option[] | undefined): Partial<FieldView> => (options ? { type: 'enum', options } : {});

/** The same, shown as plain text in the table and the drawer (a provider's name needs no colour). */
export const asPlainChoice = (options: Option[] | undefined): Partial<FieldView> =>
  options ? { type: 'enum', options, render: (v) => <>{options.find((o) => String(o.value) === String(v))?.label ?? (v === null || v === undefined ? '-' : String(v))}</> } : {};

/** Game kinds as choices, labelled `casino.kind.<code>`. */
export const kindOptions = (t: TFunction): Option[] => {
  const label: Record<(typeof CASINO_GAME_KINDS)[number], string> = { slot: t('casino.kind.slot'), crash: t('casino.kind.crash'), roulette: t('casino.kind.roulette') };
  return CASINO_GAME_KINDS.map((k) => ({ value: k, label: label[k] }));
};

// --------------------------------------------------------------------------------------- percentages

/** A rate in basis points typed as a percentage (96.5 → 9650). Form.Item hands `value` / `onChange` in bps. */
export function PercentBpsInput({ value, onChange, ...rest }: Omit<InputNumberProps<number>, 'value' | 'onChange'> & { value?: number | null; onChange?: (bps: number | null) => void }) {
  return (
    <InputNumber<number>
      {...rest}
      value={value === null || value === undefined ? null : value / 100}
      onChange={(v) => onChange?.(v === null || v === undefined ? null : Math.round(Number(v) * 100))}
      step={0.1}
      precision={2}
      suffix="%"
      style={{ width: '100%' }}
    />
  );
}

/** The bounds of a bps field, checked and worded as percentages. */
export const percentRule = (t: TFunction, min: number, max: number): FormRule => ({
  type: 'number',
  min,
  max,
  message: t('form.between', { min: `${min / 100} %`, max: `${max / 100} %` }),
});

/** A bps field edited and shown as a percentage (its bounds in %). */
export function percentField(f: FieldDef, t: TFunction, render: (v: unknown) => string, help?: string): Partial<FieldView> {
  return {
    min: undefined,
    max: undefined,
    input: () => <PercentBpsInput />,
    rules: f.min !== undefined && f.max !== undefined ? [percentRule(t, f.min, f.max)] : [],
    render: (v) => render(v),
    help,
  };
}

// ---------------------------------------------------------------------------------------- secrets

/** Whether a provider has a secret stored, as the list answers it (`has_secret` / `secret_set`), else unknown. */
export function SecretState({ row }: { row: Row }) {
  const { t } = useTranslation();
  const set = row.has_secret ?? row.secret_set;
  if (set === undefined) return <Tag>{t('casino.provider.secretHidden')}</Tag>;
  return set ? <Tag color="green">{t('casino.provider.secretStored')}</Tag> : <Tag>{t('casino.provider.secretNone')}</Tag>;
}

/** Allowed IPs, one tag each; "any" when empty. */
export function IpList({ value }: { value: unknown }) {
  const { t } = useTranslation();
  const list = Array.isArray(value) ? value.map(String) : String(value ?? '').split(/[\s,]+/).filter(Boolean);
  if (!list.length) return <Tag>{t('casino.provider.anyIp')}</Tag>;
  return (
    <Space size={4} wrap>
      {list.map((ip) => (
        <Tag key={ip} style={{ fontFamily: 'monospace' }}>
          {ip}
        </Tag>
      ))}
    </Space>
  );
}

// ----------------------------------------------------------------------------------- report lists

export { gameReportResource, userReportResource };

/** The actual RTP; in the warning colour when above the theoretical one (the house paid more than the game should). */
function ActualRtp({ actual, theoretical, percent }: { actual: unknown; theoretical: unknown; percent: (bps: unknown) => string }) {
  const above = actual !== null && actual !== undefined && theoretical !== null && theoretical !== undefined && Number(actual) > Number(theoretical);
  return (
    <Typography.Text type={above ? 'warning' : undefined} strong={above} style={{ whiteSpace: 'nowrap' }}>
      {percent(actual)}
    </Typography.Text>
  );
}

/** The report declarations with their choices (provider, game) and the RTP columns in %. */
export function useReportView(def: ResourceView): ResourceView {
  const percent = usePercent();
  const providers = useProviderChoices();
  const games = useGameChoices();
  return useMemo(
    () =>
      casinoView(def, {
        provider_id: asChoice(providers),
        game_id: asChoice(games),
        actual_rtp_bps: { keep: true, render: (v, row) => <ActualRtp actual={v} theoretical={row.theoretical_rtp_bps} percent={percent} /> },
        theoretical_rtp_bps: { keep: true, render: (v) => percent(v) },
        ggr: { keep: true, render: (v) => <SignedTsh cents={v} /> },
        turnover: { keep: true },
        payouts: { keep: true },
        game_name: { keep: true },
        rounds: { keep: true },
        provider_name: { keep: true },
        phone: { keep: true },
      }),
    [def, providers, games, percent],
  );
}
