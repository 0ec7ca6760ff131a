import { useEffect, useId, useState } from 'react';
import { Alert, Col, DatePicker, Form, Input, InputNumber, Radio, Row as Grid, Select, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatAmount, parseTshToCents } from '@dau/domain';
import type { CampaignType } from '@dau/contract';
import type { Dayjs } from '../../kit/dayjs';
import { wallTimeIso, zonedWallTime } from '../../kit/timeZone';
import { ApiFailure } from '../../kit/api';
import { FormDialog, TshInput, applyServerErrors, tshRule, useLocale, type Row } from '../../resources';
import { CAMPAIGN_TYPES } from './shared';

/** The form's values (amounts as typed text, the period as two wall times of the operator's zone). */
interface Values {
  name: string;
  type: CampaignType;
  period: [Dayjs, Dayjs];
  agent_id?: number | null;
  days?: number;
  min_first_deposit?: string;
  min_stake?: string;
  min_odds?: number;
  reward_kind: 'cash' | 'bonus';
  reward_mode: 'fixed' | 'percent';
  fixed?: string;
  percent?: number;
  cap?: string;
  budget: string;
  wagering_multiplier?: number;
  bonus_expiry_days?: number;
  auto_approve: boolean;
}

const cents = (v: string | undefined) => (v === undefined || v === null || String(v).trim() === '' ? null : parseTshToCents(String(v)));
const typed = (c: unknown) => (c === null || c === undefined ? undefined : formatAmount(Number(c)));
/** Types whose qualifying amount a percent reward is taken of (a sign-in streak has none). */
const HAS_AMOUNT = new Set<string>(['invitation', 'bet_to_get', 'deposit_match', 'custom']);

function initial(row: Row | undefined): Partial<Values> {
  const now = zonedWallTime(Date.now()).second(0);
  if (!row) {
    return {
      type: 'signin_streak', period: [now, now.add(30, 'day')], days: 3, min_odds: 1.5, reward_kind: 'cash', reward_mode: 'fixed',
      wagering_multiplier: 0, bonus_expiry_days: 30, auto_approve: false,
    };
  }
  const rules = (row.rules ?? {}) as Row;
  const reward = (row.reward ?? {}) as Row;
  return {
    name: String(row.name ?? ''),
    type: row.type as CampaignType,
    period: [zonedWallTime(String(row.starts_at)), zonedWallTime(String(row.ends_at))],
    agent_id: (row.agent_id as number | null) ?? null,
    days: rules.days as number | undefined,
    min_first_deposit: typed(rules.min_first_deposit),
    min_stake: typed(rules.min_stake),
    min_odds: rules.min_odds as number | undefined,
    reward_kind: (reward.kind as 'cash' | 'bonus') ?? 'cash',
    reward_mode: reward.percent_bps != null ? 'percent' : 'fixed',
    fixed: typed(reward.fixed_cents),
    percent: reward.percent_bps != null ? Number(reward.percent_bps) / 100 : undefined,
    cap: typed(reward.cap_cents),
    budget: typed(row.budget_cents) ?? '',
    wagering_multiplier: Number(row.wagering_multiplier ?? 0),
    bonus_expiry_days: Number(row.bonus_expiry_days ?? 30),
    auto_approve: !!row.auto_approve,
  };
}

function rulesOf(v: Values): Row {
  switch (v.type) {
    case 'signin_streak':
      return { days: v.days };
    case 'invitation':
    case 'deposit_match':
      return { min_first_deposit: cents(v.min_first_deposit) };
    case 'bet_to_get':
      return { min_stake: cents(v.min_stake), min_odds: v.min_odds };
    default:
      return {};
  }
}

/** The body of POST /promotions/campaigns or PUT /promotions/campaigns/:id. */
function bodyOf(v: Values, mode: 'create' | 'edit', locked: boolean): Row {
  const percent = v.reward_mode === 'percent' && HAS_AMOUNT.has(v.type);
  const body: Row = {
    name: v.name.trim(),
    starts_at: wallTimeIso(v.period[0]),
    ends_at: wallTimeIso(v.period[1]),
    budget_cents: cents(v.budget),
    wagering_multiplier: v.reward_kind === 'bonus' ? (v.wagering_multiplier ?? 0) : 0,
    bonus_expiry_days: v.bonus_expiry_days ?? 30,
    auto_approve: !!v.auto_approve,
  };
  if (!locked) {
    body.rules = rulesOf(v);
    body.reward = {
      kind: v.reward_kind,
      fixed_cents: percent ? null : cents(v.fixed),
      percent_bps: percent ? Math.round((v.percent ?? 0) * 100) : null,
      cap_cents: cents(v.cap),
    };
  }
  if (mode === 'create') {
    body.type = v.type;
    if (v.agent_id) body.agent_id = v.agent_id;
  }
  return body;
}

/** Server field errors (`rules.days`, `reward.fixed_cents`…) under the inputs that typed them. */
const FIELD_OF: Record<string, string> = {
  starts_at: 'period', ends_at: 'period', budget_cents: 'budget', 'rules.days': 'days', 'rules.min_first_deposit': 'min_first_deposit',
  'rules.min_stake': 'min_stake', 'rules.min_odds': 'min_odds', 'reward.fixed_cents': 'fixed', 'reward.percent_bps': 'percent', 'reward.cap_cents': 'cap',
};

/** The server's answer with its field names turned into the form's. */
function renamed(err: unknown): unknown {
  if (!(err instanceof ApiFailure) || !Array.isArray(err.details)) return err;
  const details = (err.details as { field?: unknown }[]).map((d) => {
    const field = typeof d?.field === 'string' ? d.field : '';
    const key = Object.keys(FIELD_OF).find((k) => field === k || field.startsWith(`${k}.`));
    return key ? { ...d, field: FIELD_OF[key] } : d;
  });
  return new ApiFailure(err.status, err.code, err.message, details);
}

export interface CampaignFormProps {
  /** Open for a new campaign (`row` undefined) or to edit `row`. */
  open: boolean;
  row?: Row;
  onClose(): void;
  onSubmit(body: Row): Promise<unknown>;
}

/**
 * Create / edit a campaign: name, type (fixed once created), period, branch, the rule of its type, the
 * reward (cash or bonus funds; fixed or a percentage of the qualifying amount; a cap per bettor), the
 * budget, the wagering and expiry of bonus funds, and auto-approval. A campaign bettors already qualified
 * for keeps its rule and reward (the server says so too).
 */
export function CampaignForm({ open, row, onClose, onSubmit }: CampaignFormProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const formId = useId();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const mode = row ? 'edit' : 'create';
  const locked = !!row && Number(row.qualified ?? 0) > 0;
  const type = Form.useWatch('type', form) ?? (row?.type as CampaignType | undefined) ?? 'signin_streak';
  const kind = Form.useWatch('reward_kind', form) ?? 'cash';
  const rewardMode = Form.useWatch('reward_mode', form) ?? 'fixed';
  const percentAllowed = HAS_AMOUNT.has(type);

  useEffect(() => {
    if (open) form.setFieldsValue(initial(row) as Values);
  }, [open, row, form]);

  const submit = async (v: Values) => {
    setSaving(true);
    try {
      await onSubmit(bodyOf(v, mode, locked));
      onClose();
    } catch (err) {
      applyServerErrors(form, renamed(err), Object.keys(v));
    } finally {
      setSaving(false);
    }
  };

  const amount = (min = 1) => [tshRule(t, locale, { min, allowZero: false })];
  const required = (label: string) => ({ required: true, message: t('promotions.form.required', { label }) });

  return (
    <FormDialog
      open={open}
      title={row ? t('promotions.form.editTitle', { name: String(row.name ?? '') }) : t('promotions.form.createTitle')}
      maxWidth={760}
      onClose={onClose}
      forceRender
      testId="campaign-form"
      formId={formId}
      saving={saving}
    >
      <Form<Values> form={form} id={formId} layout="vertical" requiredMark onFinish={(v) => void submit(v)} initialValues={initial(row)}>
        {locked ? <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('promotions.form.locked')} /> : null}
        <Grid gutter={16}>
          <Col xs={24} md={14}>
            <Form.Item name="name" label={t('promotions.field.name')} rules={[required(t('promotions.field.name')), { max: 64 }]}>
              <Input maxLength={64} data-testid="campaign-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={10}>
            <Form.Item name="type" label={t('promotions.field.type')} rules={[required(t('promotions.field.type'))]}>
              <Select
                disabled={mode === 'edit'}
                data-testid="campaign-type"
                options={CAMPAIGN_TYPES.map((value) => ({ value, label: t(`promotions.type.${value}`) }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={14}>
            <Form.Item name="period" label={t('promotions.field.period')} rules={[required(t('promotions.field.period'))]}>
              <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} data-testid="campaign-period" />
            </Form.Item>
          </Col>
          <Col xs={24} md={10}>
            <Form.Item name="agent_id" label={t('promotions.field.agent_id')} help={mode === 'create' ? t('promotions.form.agentHelp') : undefined}>
              <InputNumber min={1} precision={0} style={{ width: '100%' }} disabled={mode === 'edit'} data-testid="campaign-agent" />
            </Form.Item>
          </Col>
        </Grid>

        <Typography.Title level={5}>{t('promotions.form.rule')}</Typography.Title>
        <Grid gutter={16}>
          {type === 'signin_streak' ? (
            <Col xs={24} md={12}>
              <Form.Item name="days" label={t('promotions.field.days')} rules={[required(t('promotions.field.days'))]} extra={t('promotions.help.days')}>
                <InputNumber min={1} max={366} precision={0} style={{ width: '100%' }} disabled={locked} data-testid="rule-days" />
              </Form.Item>
            </Col>
          ) : null}
          {type === 'invitation' || type === 'deposit_match' ? (
            <Col xs={24} md={12}>
              <Form.Item
                name="min_first_deposit"
                label={t('promotions.field.min_first_deposit')}
                rules={[required(t('promotions.field.min_first_deposit')), ...amount()]}
                extra={type === 'invitation' ? t('promotions.help.invitation') : t('promotions.help.deposit_match')}
              >
                <TshInput disabled={locked} data-testid="rule-min-deposit" />
              </Form.Item>
            </Col>
          ) : null}
          {type === 'bet_to_get' ? (
            <>
              <Col xs={24} md={12}>
                <Form.Item name="min_stake" label={t('promotions.field.min_stake')} rules={[required(t('promotions.field.min_stake')), ...amount()]} extra={t('promotions.help.bet_to_get')}>
                  <TshInput disabled={locked} data-testid="rule-min-stake" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="min_odds" label={t('promotions.field.min_odds')} rules={[required(t('promotions.field.min_odds'))]}>
                  <InputNumber min={1} max={10_000} step={0.05} precision={2} style={{ width: '100%' }} disabled={locked} data-testid="rule-min-odds" />
                </Form.Item>
              </Col>
            </>
          ) : null}
          {type === 'custom' ? (
            <Col span={24}>
              <Typography.Paragraph type="secondary">{t('promotions.help.custom')}</Typography.Paragraph>
            </Col>
          ) : null}
        </Grid>

        <Typography.Title level={5}>{t('promotions.form.reward')}</Typography.Title>
        <Grid gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item name="reward_kind" label={t('promotions.field.reward_kind')} extra={kind === 'bonus' ? t('promotions.help.reward_bonus') : t('promotions.help.reward_cash')}>
              <Radio.Group disabled={locked} optionType="button" data-testid="reward-kind" options={[
                { value: 'cash', label: t('promotions.reward.cash') },
                { value: 'bonus', label: t('promotions.reward.bonus') },
              ]} />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="reward_mode" label={t('promotions.field.reward_mode')}>
              <Radio.Group disabled={locked} optionType="button" data-testid="reward-mode" options={[
                { value: 'fixed', label: t('promotions.reward.fixed') },
                { value: 'percent', label: t('promotions.reward.percent'), disabled: !percentAllowed },
              ]} />
            </Form.Item>
          </Col>
          {rewardMode === 'percent' && percentAllowed ? (
            <Col xs={24} md={12}>
              <Form.Item name="percent" label={t('promotions.field.percent')} rules={[required(t('promotions.field.percent'))]} extra={t('promotions.help.percent')}>
                <InputNumber min={0.01} max={1000} step={1} precision={2} suffix="%" style={{ width: '100%' }} disabled={locked} data-testid="reward-percent" />
              </Form.Item>
            </Col>
          ) : (
            <Col xs={24} md={12}>
              <Form.Item name="fixed" label={t('promotions.field.fixed')} rules={[required(t('promotions.field.fixed')), ...amount()]}>
                <TshInput disabled={locked} data-testid="reward-fixed" />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} md={12}>
            {/* A percentage reward must have a cap per bettor (the server refuses it otherwise: PROMO_PERCENT_CAP_REQUIRED). */}
            <Form.Item
              name="cap"
              label={t('promotions.field.cap')}
              rules={rewardMode === 'percent' && percentAllowed ? [required(t('promotions.field.cap')), ...amount()] : amount()}
              extra={t(rewardMode === 'percent' && percentAllowed ? 'promotions.help.capPercent' : 'promotions.help.cap')}
            >
              <TshInput disabled={locked} data-testid="reward-cap" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="budget" label={t('promotions.field.budget_cents')} rules={[required(t('promotions.field.budget_cents')), ...amount()]} extra={t('promotions.help.budget')}>
              <TshInput data-testid="campaign-budget" />
            </Form.Item>
          </Col>
          {kind === 'bonus' ? (
            <>
              <Col xs={12} md={6}>
                <Form.Item name="wagering_multiplier" label={t('promotions.field.wagering_multiplier')}>
                  <InputNumber min={0} max={100} precision={0} suffix="×" style={{ width: '100%' }} data-testid="bonus-wagering" />
                </Form.Item>
              </Col>
              <Col xs={12} md={6}>
                <Form.Item name="bonus_expiry_days" label={t('promotions.field.bonus_expiry_days')}>
                  <InputNumber min={1} max={365} precision={0} style={{ width: '100%' }} data-testid="bonus-expiry" />
                </Form.Item>
              </Col>
            </>
          ) : null}
          <Col span={24}>
            <Form.Item name="auto_approve" label={t('promotions.field.auto_approve')} valuePropName="checked" extra={t('promotions.help.auto_approve')}>
              <Switch data-testid="campaign-auto-approve" />
            </Form.Item>
          </Col>
        </Grid>
      </Form>
    </FormDialog>
  );
}
