import { cloneElement, isValidElement } from 'react';
import { Col, ColorPicker, DatePicker, Form, Input, InputNumber, Row as Grid, Select, Switch, type FormRule } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { fieldLabelKey, imagesMax } from '@dau/contract/ui';
import { DATETIME_FORMAT } from './datetime';
import { formFields } from './formValues';
import { fieldOptions, useLocale } from './locale';
import { TshInput, tshRule } from './TshInput';
import { ImageUpload } from './ImageUpload';
import { specMessage } from '../kit/spec-messages';
import type { FieldContext, FieldView } from './types';

const isJson = (v: string) => {
  try {
    JSON.parse(v);
    return true;
  } catch {
    return false;
  }
};

/** The client-side checks of a field: required, length, bounds, JSON; then the field's own rules. */
export function fieldRules(f: FieldView, t: TFunction, locale: string): FormRule[] {
  const label = t(fieldLabelKey(f));
  const rules: FormRule[] = [];
  if (f.required && f.type !== 'switch') {
    const text = f.requiredMessage ?? t(f.type === 'enum' || f.type === 'datetime' ? 'form.requiredSelect' : 'form.required', { label });
    // Only `required` (+ message) for non-text values: any other key makes the validator expect a string.
    rules.push(f.type === 'text' || f.type === 'textarea' ? { required: true, whitespace: true, message: text } : { required: true, message: text });
  }
  if (f.maxLength !== undefined && f.type !== 'number' && f.type !== 'images') rules.push({ type: 'string', max: f.maxLength, message: t('form.maxLength', { max: f.maxLength }) });
  if (f.type === 'money') rules.push(tshRule(t, locale, { min: f.min, max: f.max }));
  else if (f.type === 'number' || f.type === 'odds') {
    if (f.min !== undefined && f.max !== undefined) rules.push({ type: 'number', min: f.min, max: f.max, message: t('form.between', { min: f.min, max: f.max }) });
    else if (f.min !== undefined) rules.push({ type: 'number', min: f.min, message: t('form.atLeast', { min: f.min }) });
    else if (f.max !== undefined) rules.push({ type: 'number', max: f.max, message: t('form.atMost', { max: f.max }) });
  }
  if (f.type === 'json' || f.check === 'json') {
    rules.push({ validator: async (_r, v: unknown) => (typeof v !== 'string' || !v.trim() || isJson(v) ? undefined : Promise.reject(new Error(specMessage('CONVERSION_FAILED', locale)))) });
  }
  return [...rules, ...(f.rules ?? [])];
}

interface FieldInputProps {
  field: FieldView;
  ctx: FieldContext;
  disabled?: boolean;
  [control: string]: unknown;
}

/** The input of one field, chosen from its type (or the field's own `input`). */
export function FieldInput({ field: f, ctx, disabled, ...control }: FieldInputProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  // Form.Item hands `value`/`onChange` (or `checked`) to its child: pass them on to the real input.
  if (f.input) {
    const own = f.input(ctx);
    return isValidElement(own) ? cloneElement(own, disabled ? { ...control, disabled } : control) : <>{own}</>;
  }
  const options = fieldOptions(f, locale);
  const placeholder = f.placeholder;
  // A secret is written, never read back: an empty password input; on edit, empty keeps the stored one.
  if (f.writeOnly) {
    return <Input.Password autoComplete="new-password" maxLength={f.maxLength} placeholder={ctx.mode === 'edit' ? t('form.keepSecret') : placeholder} disabled={disabled} {...control} />;
  }
  if (options) return <Select options={options as never} allowClear={!f.required} showSearch={{ optionFilterProp: 'label' }} placeholder={placeholder ?? t('form.select')} disabled={disabled} {...control} />;
  switch (f.type) {
    case 'switch':
      return <Switch disabled={disabled} {...control} />;
    case 'number':
    case 'odds':
    case 'enum': // an enumeration the domain does not have (yet): its id
      // No min/max on the input: it would silently change what was typed into the bound (200 saved as
      // 1,024); the field's rule refuses a value out of bounds and names the bounds instead.
      return <InputNumber style={{ width: '100%' }} placeholder={placeholder} disabled={disabled} {...control} />;
    case 'money':
      return <TshInput placeholder={placeholder} disabled={disabled} {...control} />;
    case 'datetime':
      return <DatePicker showTime format={DATETIME_FORMAT} style={{ width: '100%' }} placeholder={placeholder} disabled={disabled} {...control} />;
    case 'color':
      return <ColorPicker showText format="hex" disabledAlpha disabled={disabled} {...control} />;
    case 'json':
      return <Input.TextArea autoSize={{ minRows: 4, maxRows: 16 }} style={{ fontFamily: 'monospace' }} placeholder={placeholder ?? '{ }'} disabled={disabled} {...control} />;
    case 'textarea':
      return <Input.TextArea autoSize={{ minRows: 3, maxRows: 10 }} maxLength={f.maxLength} showCount={!!f.maxLength} placeholder={placeholder} disabled={disabled} {...control} />;
    case 'image':
      return <ImageUpload label={t(fieldLabelKey(f))} disabled={disabled} {...control} />;
    case 'images':
      return <ImageUpload multiple max={imagesMax(f)} label={t(fieldLabelKey(f))} disabled={disabled} {...control} />;
    default:
      return <Input allowClear maxLength={f.maxLength} placeholder={placeholder} disabled={disabled} {...control} />;
  }
}

/** Wide inputs take the whole row of the form's grid. */
const isWide = (f: FieldView) => f.type === 'json' || f.type === 'textarea' || f.type === 'images';

/** The Form.Items of the fields a mode may set, on a two-column grid (one column on phones, or for a lone field). */
export function FormFields({ fields, ctx }: { fields: readonly FieldView[]; ctx: FieldContext }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const shown = formFields(fields, ctx.mode);
  // A form of one field (a reason, a password, a choice) gives it the whole width.
  const single = shown.length === 1;
  return (
    <Grid gutter={[16, 0]}>
      {shown.map((f) => {
        const disabled = f.disabled?.(ctx);
        return (
          <Col key={f.key} xs={24} md={single || isWide(f) ? 24 : 12}>
            <Form.Item
              name={f.key}
              label={t(fieldLabelKey(f))}
              extra={typeof f.help === 'string' ? t(f.help) : f.help}
              rules={disabled ? [] : fieldRules(f.writeOnly && ctx.mode === 'edit' ? { ...f, required: false } : f, t, locale)}
              valuePropName={f.type === 'switch' ? 'checked' : 'value'}
              getValueFromEvent={f.type === 'color' ? (c: { toHexString(): string }) => c.toHexString() : undefined}
            >
              <FieldInput field={f} ctx={ctx} disabled={disabled} />
            </Form.Item>
          </Col>
        );
      })}
    </Grid>
  );
}
