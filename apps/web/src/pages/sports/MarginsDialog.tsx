import { useState } from 'react';
import { EditOutlined } from '@ant-design/icons';
import { Button, Flex, Form, InputNumber, Modal, Select, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useDialogWidth } from '../../kit/dialog';
import { ActionButton, FieldValue, fieldOptions, formatDateTime, LoadError, useApiMutation, useLocale, type FieldView } from '../../resources';
import { MATCH_LISTS, PAGE } from './MatchActions';

/** GET /sports/margins (apps/server/src/modules/feed/controls.ts). */
interface Margin {
  id: number;
  sport_id: number;
  league_id: number | null;
  margin_bps: number;
  updated_at: string;
}

const MARGINS_KEY = [PAGE, 'margins'];
const sportField: FieldView = { key: 'sport_id', type: 'enum', enum: 'sport' };
/** Basis points <-> percent (250 bps = 2.5 %). */
const toPercent = (bps: number) => bps / 100;
const toBps = (percent: number) => Math.round(percent * 100);
export const formatMargin = (bps: number) => `${toPercent(bps).toFixed(2)} %`;

interface MarginForm {
  sport_id: number;
  league_id?: number | null;
  percent: number;
}

/**
 * The margin added to the provider's prices, per sport or per league of a sport (the league's own wins):
 * the list of what is set, and a form to set one. Shown in percent, stored in basis points.
 */
export function MarginsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const width = useDialogWidth(720);
  const [form] = Form.useForm<MarginForm>();
  const [saving, setSaving] = useState(false);
  const q = useQuery({ queryKey: MARGINS_KEY, queryFn: () => api.get<{ items: Margin[] }>('/sports/margins'), enabled: open });
  const save = useApiMutation((body: { sport_id: number; league_id: number | null; margin_bps: number }) => api.put<Margin>('/sports/margins', body), {
    invalidate: [MARGINS_KEY, ...MATCH_LISTS],
  });

  const submit = async (v: MarginForm) => {
    setSaving(true);
    try {
      await save.mutateAsync({ sport_id: v.sport_id, league_id: v.league_id ?? null, margin_bps: toBps(v.percent) });
      form.resetFields(['league_id', 'percent']);
    } catch {
      /* the toast has said why */
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} onCancel={onClose} footer={null} width={width} destroyOnHidden title={t('sports.margins.title')} data-testid="margins-dialog">
      <Typography.Paragraph type="secondary">{t('sports.margins.hint')}</Typography.Paragraph>
      {q.isError && !q.data ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <Table<Margin>
          size="small"
          rowKey="id"
          loading={q.isPending}
          pagination={false}
          dataSource={q.data?.items ?? []}
          scroll={{ x: 'max-content', y: 280 }}
          locale={{ emptyText: t('sports.margins.none') }}
          data-testid="margins-table"
          columns={[
            { key: 'sport', title: t('field.sport_id'), render: (_, m) => <FieldValue field={sportField} value={m.sport_id} /> },
            { key: 'league', title: t('sports.margins.league'), render: (_, m) => (m.league_id === null ? <Typography.Text type="secondary">{t('sports.margins.wholeSport')}</Typography.Text> : m.league_id) },
            { key: 'margin', title: t('sports.margins.margin'), render: (_, m) => <span data-testid={`margin-${m.sport_id}-${m.league_id ?? 'all'}`}>{formatMargin(m.margin_bps)}</span> },
            { key: 'updated', title: t('field.updated_at'), render: (_, m) => <Typography.Text type="secondary">{formatDateTime(m.updated_at)}</Typography.Text> },
            {
              key: 'edit',
              width: 48,
              render: (_, m) => (
                <ActionButton
                  action="odds"
                  page={PAGE}
                  type="text"
                  size="small"
                  compact
                  icon={<EditOutlined />}
                  onClick={() => form.setFieldsValue({ sport_id: m.sport_id, league_id: m.league_id, percent: toPercent(m.margin_bps) })}
                >
                  {t('button.edit')}
                </ActionButton>
              ),
            },
          ]}
        />
      )}
      <Form<MarginForm> form={form} layout="vertical" name="margin" initialValues={{ sport_id: 1 }} onFinish={(v) => void submit(v)} style={{ marginTop: 16 }}>
        <Flex gap={12} wrap align="flex-end">
          <Form.Item name="sport_id" label={t('field.sport_id')} rules={[{ required: true }]} style={{ minWidth: 140, marginBottom: 0 }}>
            <Select options={fieldOptions(sportField, locale) as never} data-testid="margin-sport" />
          </Form.Item>
          <Form.Item name="league_id" label={t('sports.margins.leagueId')} tooltip={t('sports.margins.leagueHint')} style={{ width: 160, marginBottom: 0 }}>
            <InputNumber min={1} precision={0} style={{ width: '100%' }} placeholder={t('sports.margins.wholeSport')} data-testid="margin-league" />
          </Form.Item>
          <Form.Item
            name="percent"
            label={t('sports.margins.percent')}
            rules={[{ required: true, message: t('sports.margins.percentRequired') }]}
            style={{ width: 140, marginBottom: 0 }}
          >
            <InputNumber min={0} max={30} step={0.25} precision={2} suffix="%" style={{ width: '100%' }} data-testid="margin-percent" />
          </Form.Item>
          <ActionButton action="odds" page={PAGE} type="primary" htmlType="submit" loading={saving} testId="margin-save">
            {t('sports.margins.set')}
          </ActionButton>
          <Button onClick={() => form.resetFields()}>{t('action.reset')}</Button>
        </Flex>
      </Form>
    </Modal>
  );
}
