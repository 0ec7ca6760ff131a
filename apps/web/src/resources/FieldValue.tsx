import { Badge, Image, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTsh } from '@dau/domain';
import { fieldLabelKey } from '@dau/contract/ui';
import { enumColor, enumText, useLocale } from './locale';
import { formatDateTime } from './datetime';
import type { FieldView, Row } from './types';


const isBlank = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

export const Blank = () => <Typography.Text type="secondary">-</Typography.Text>;

function prettyJson(value: unknown): string {
  if (typeof value !== 'string') return JSON.stringify(value, null, 2);
  try {
    return JSON.stringify(JSON.parse(value), null, 2);
  } catch {
    return value;
  }
}

interface Props {
  field: FieldView;
  value: unknown;
  row?: Row;
  /** The table truncates long values; the detail drawer shows them whole. */
  variant?: 'table' | 'detail';
}

/** One value, rendered by its field type (datetime, money, enum, switch, image, colour, JSON...). */
export function FieldValue({ field, value, row, variant = 'table' }: Props) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (field.render) return <>{field.render(value, row ?? {}, variant)}</>;
  if (field.type !== 'switch' && isBlank(value)) return <Blank />;
  const options = field.options;
  switch (field.type) {
    case 'datetime':
      return <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(value)}</span>;
    case 'money': {
      // Integer cents from the server; a debit (negative) reads in the error colour.
      const cents = Number(value);
      if (!Number.isSafeInteger(cents)) return <>{String(value)}</>;
      return (
        <Typography.Text type={cents < 0 ? 'danger' : undefined} style={{ whiteSpace: 'nowrap' }}>
          {formatTsh(cents, locale)}
        </Typography.Text>
      );
    }
    case 'enum': {
      const label = options ? options.find((o) => String(o.value) === String(value))?.label : enumText(field.enum, value, locale);
      return <Tag color={enumColor(field.enum, value)}>{label ?? String(value)}</Tag>;
    }
    case 'switch':
      return value ? <Badge status="success" text={t('form.yes')} /> : <Badge status="default" text={t('form.no')} />;
    case 'image':
      return <Image src={String(value)} width={variant === 'table' ? 40 : 96} alt={t(fieldLabelKey(field))} />;
    case 'images': {
      const list = Array.isArray(value) ? (value as unknown[]).map(String) : [];
      if (!list.length) return <Blank />;
      // The table shows the first picture and how many there are; the detail view all of them, in order.
      const shown = variant === 'table' ? list.slice(0, 1) : list;
      return (
        <Image.PreviewGroup items={list}>
          <Space size={6} wrap>
            {shown.map((src, i) => <Image key={`${src}-${i}`} src={src} width={variant === 'table' ? 40 : 96} alt={`${t(fieldLabelKey(field))} ${i + 1}`} />)}
            {variant === 'table' && list.length > 1 && <Typography.Text type="secondary">+{list.length - 1}</Typography.Text>}
          </Space>
        </Image.PreviewGroup>
      );
    }
    case 'color':
      return (
        <Space size={6}>
          <span style={{ display: 'inline-block', width: 16, height: 16, borderRadius: 4, background: String(value), border: '1px solid rgba(0,0,0,.15)' }} />
          <Typography.Text code>{String(value)}</Typography.Text>
        </Space>
      );
    case 'json':
      return variant === 'table' ? (
        <Typography.Text code ellipsis style={{ maxWidth: 240 }}>{String(value)}</Typography.Text>
      ) : (
        <pre style={{ margin: 0, maxHeight: 320, overflow: 'auto', fontSize: 12 }}>{prettyJson(value)}</pre>
      );
    case 'textarea':
    case 'text':
      if (field.labels) return <>{t(`${field.labels}.${String(value)}`, { defaultValue: String(value) })}</>;
      return variant === 'table' ? (
        <Typography.Text ellipsis={{ tooltip: String(value) }} style={{ maxWidth: field.width ?? 320 }}>{String(value)}</Typography.Text>
      ) : (
        <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{String(value)}</span>
      );
    default:
      return <>{String(value)}</>;
  }
}
