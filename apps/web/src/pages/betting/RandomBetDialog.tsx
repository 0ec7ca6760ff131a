import { useEffect, useState } from 'react';
import { Alert, Form, InputNumber, Modal, Select, Switch, Typography } from 'antd';
import { parseTshToCents } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { TshInput, tshRule, useApiMutation, useLocale } from '../../resources';
import { ORDER_LISTS } from './shared';

interface Answer {
  placed: { order_no: string; bettor_id: number; stake: number }[];
  refused: { bettor_id: number; code: string }[];
}

interface Values {
  bettor_ids: string[];
  orders: number;
  min_amount: string;
  max_amount: string;
  days: number;
  live_only: boolean;
  min_odds: number;
  max_odds: number;
}

const INITIAL: Partial<Values> = { bettor_ids: [], orders: 1, min_amount: '1,000', max_amount: '5,000', days: 1, live_only: false, min_odds: 0, max_odds: 0 };

/**
 * Betting › Orders › Random bets (spec §2): singles placed as type random bet for chosen bettors (POST
 * /betting/random-bets). Amounts are typed in shillings and sent in cents; the answer's placed and
 * refused counts are shown in the dialog.
 */
export function RandomBetDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [form] = Form.useForm<Values>();
  const [result, setResult] = useState<Answer | null>(null);
  const place = useApiMutation((body: unknown) => api.post<Answer>('/betting/random-bets', body), { success: false, invalidate: ORDER_LISTS, onSuccess: setResult });

  useEffect(() => {
    if (open) {
      setResult(null);
      form.resetFields();
    }
  }, [open, form]);

  const submit = async () => {
    // An invalid form shows its messages under the fields.
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    await place.mutateAsync({
      bettor_ids: [...new Set(v.bettor_ids.map((x) => Number(String(x).trim())))],
      orders: v.orders,
      min_amount: parseTshToCents(String(v.min_amount)),
      max_amount: parseTshToCents(String(v.max_amount)),
      days: v.days,
      live_only: !!v.live_only,
      min_odds: v.min_odds ?? 0,
      max_odds: v.max_odds ?? 0,
    }).catch(() => undefined);
  };

  return (
    <Modal
      open={open}
      title={t('betting.random.title')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('betting.random.submit')}
      okButtonProps={{ loading: place.isPending, 'data-testid': 'random-bet-submit' } as never}
      destroyOnHidden
      width={560}
    >
      <Typography.Paragraph type="secondary">{t('betting.random.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={INITIAL} requiredMark>
        <Form.Item
          name="bettor_ids"
          label={t('betting.random.bettors')}
          extra={t('betting.random.bettorsHelp')}
          rules={[
            { required: true, type: 'array', min: 1, message: t('betting.random.bettorsHelp') },
            { validator: async (_r, v: string[] = []) => { if (v.length > 100 || v.some((x) => !/^\d+$/.test(String(x).trim()) || Number(x) <= 0)) throw new Error(t('betting.random.bettorsHelp')); } },
          ]}
        >
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} data-testid="random-bet-bettors" />
        </Form.Item>
        <Form.Item name="orders" label={t('betting.random.orders')} rules={[{ required: true }]}>
          <InputNumber min={1} max={100} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item name="min_amount" label={t('betting.random.minAmount')} style={{ flex: 1 }} rules={[{ required: true }, tshRule(t, locale, { min: 1 })]}>
            <TshInput />
          </Form.Item>
          <Form.Item
            name="max_amount"
            label={t('betting.random.maxAmount')}
            style={{ flex: 1 }}
            dependencies={['min_amount']}
            rules={[
              { required: true },
              tshRule(t, locale, { min: 1 }),
              ({ getFieldValue }) => ({
                validator: async (_r, v) => {
                  const min = parseTshToCents(String(getFieldValue('min_amount') ?? ''));
                  const max = parseTshToCents(String(v ?? ''));
                  if (min !== null && max !== null && max < min) throw new Error(t('betting.random.maxBelowMin'));
                },
              }),
            ]}
          >
            <TshInput />
          </Form.Item>
        </div>
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item name="days" label={t('betting.random.days')} style={{ flex: 1 }} rules={[{ required: true }]}>
            <InputNumber min={0} max={30} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="live_only" label={t('betting.random.liveOnly')} valuePropName="checked" style={{ flex: 1 }}>
            <Switch />
          </Form.Item>
        </div>
        <div style={{ display: 'flex', gap: 12 }}>
          <Form.Item name="min_odds" label={t('betting.random.minOdds')} extra={t('betting.random.minOddsHelp')} style={{ flex: 1 }}>
            <InputNumber min={0} max={1000} step={0.1} precision={2} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item
            name="max_odds"
            label={t('betting.random.maxOdds')}
            extra={t('betting.random.maxOddsHelp')}
            style={{ flex: 1 }}
            dependencies={['min_odds']}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_r, v) => {
                  if (v && Number(v) > 0 && Number(v) < Number(getFieldValue('min_odds') ?? 0)) throw new Error(t('betting.random.maxOddsBelowMin'));
                },
              }),
            ]}
          >
            <InputNumber min={0} max={1000} step={0.1} precision={2} style={{ width: '100%' }} />
          </Form.Item>
        </div>
      </Form>
      {result && (
        <Alert
          type={result.refused.length ? 'warning' : 'success'}
          showIcon
          data-testid="random-bet-result"
          message={t('betting.random.result', { placed: result.placed.length, refused: result.refused.length })}
        />
      )}
    </Modal>
  );
}
