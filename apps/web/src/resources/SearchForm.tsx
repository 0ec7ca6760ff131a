import { useEffect, useMemo, useState } from 'react';
import { Button, Col, DatePicker, Form, Input, InputNumber, Row as Grid, Select, Space } from 'antd';
import { DownOutlined, ReloadOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import type { Dayjs } from '../kit/dayjs';
import { useTranslation } from 'react-i18next';
import { fieldLabelKey } from '@dau/contract/ui';
import { useIsMobile } from '../kit/dialog';
import { dayEndIso, dayStartIso, zonedDay, zonedToday } from '../kit/timeZone';
import { fieldOptions, useLocale } from './locale';
import { SavedFilters } from './SavedFilters';
import type { FieldView } from './types';
import type { Filters, ListState } from './useListState';

type FormValues = Record<string, unknown>;

/** URL filter strings -> the search form's values (dates, numbers, option values). */
function toForm(fields: readonly FieldView[], filters: Filters, locale: string): FormValues {
  const out: FormValues = {};
  for (const f of fields) {
    if (f.search === 'range') {
      const from = filters[`${f.key}_from`];
      const to = filters[`${f.key}_to`];
      if (from || to) out[f.key] = [from ? zonedDay(from) : null, to ? zonedDay(to) : null];
      continue;
    }
    const v = filters[f.key];
    if (!f.search || v === undefined) continue;
    const options = fieldOptions(f, locale);
    if (options) out[f.key] = options.find((o) => String(o.value) === v)?.value ?? v;
    else if (f.type === 'number' || f.type === 'enum') out[f.key] = Number(v);
    else out[f.key] = v;
  }
  return out;
}

/** The search form's values -> URL filter strings. */
function fromForm(fields: readonly FieldView[], values: FormValues): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const f of fields) {
    const v = values[f.key];
    if (f.search === 'range') {
      const [from, to] = (v as [Dayjs | null, Dayjs | null] | undefined) ?? [];
      // Whole days in the operator's zone: from the first day's start to the last day's end.
      out[`${f.key}_from`] = from ? dayStartIso(from) : undefined;
      out[`${f.key}_to`] = to ? dayEndIso(to) : undefined;
    } else if (f.search) {
      const s = v === undefined || v === null ? '' : String(v).trim();
      out[f.key] = s || undefined;
    }
  }
  return out;
}

/** Form.Item hands `id`, `value` and `onChange` to its child: they go on to the real input. */
function SearchInput({ field, locale, ...control }: { field: FieldView; locale: string; [control: string]: unknown }) {
  const { t } = useTranslation();
  if (field.search === 'range') {
    const today = zonedToday();
    return (
      <DatePicker.RangePicker
        allowEmpty={[true, true]}
        style={{ width: '100%' }}
        {...control}
        presets={[
          { label: t('form.today'), value: [today, today] },
          { label: t('form.last7Days'), value: [today.subtract(6, 'day'), today] },
          { label: t('form.last30Days'), value: [today.subtract(29, 'day'), today] },
        ]}
      />
    );
  }
  const options = fieldOptions(field, locale);
  if (options) return <Select allowClear showSearch={{ optionFilterProp: 'label' }} options={options as never} placeholder={t('form.all')} {...control} />;
  if (field.type === 'switch') {
    return (
      <Select
        allowClear
        placeholder={t('form.all')}
        {...control}
        options={[
          { value: 'true', label: t('form.yes') },
          { value: 'false', label: t('form.no') },
        ]}
      />
    );
  }
  if (field.type === 'number' || field.type === 'enum') return <InputNumber style={{ width: '100%' }} {...control} />;
  return <Input allowClear placeholder={field.search === 'like' ? t('form.contains') : undefined} {...control} />;
}

/**
 * With more filters than this, the form shows the first ones (and any in use) until "More filters"; on a
 * phone the form folds to its first two filters, so the list starts on the first screen.
 */
const COLLAPSE_ABOVE = 7;
const SHOWN_COLLAPSED = 6;
const SHOWN_ON_PHONE = 2;

const inUse = (f: FieldView, filters: Filters) => (f.search === 'range' ? !!(filters[`${f.key}_from`] || filters[`${f.key}_to`]) : !!filters[f.key]);

/**
 * The filters of a list, built from the fields that declare `search`; it reads and writes the URL state.
 * `page`: the list's catalogue page, for its saved filters (default: the current screen's).
 */
export function SearchForm({ fields, list, page }: { fields: readonly FieldView[]; list: ListState; page?: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [form] = Form.useForm<FormValues>();
  const searchable = useMemo(() => fields.filter((f) => f.search), [fields]);
  const key = JSON.stringify(list.filters);
  const [expanded, setExpanded] = useState(false);
  const mobile = useIsMobile();
  const shown = mobile ? SHOWN_ON_PHONE : SHOWN_COLLAPSED;
  const collapsible = searchable.length > (mobile ? SHOWN_ON_PHONE : COLLAPSE_ABOVE);
  // Hidden filters keep their values in the form: a search sends them all.
  const hidden = (f: FieldView, i: number) => collapsible && !expanded && i >= shown && !inUse(f, list.filters);

  // The URL is the truth: a back/forward or a shared link refills the form.
  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(toForm(searchable, list.filters, locale));
  }, [key, locale, searchable, form]); // `key` stands for list.filters

  if (searchable.length === 0) return null;
  return (
    <Form form={form} name="search" layout="vertical" data-testid="resource-search" onFinish={(v) => list.setFilters(fromForm(searchable, v))} style={{ marginBottom: 8 }}>
      <Grid gutter={[16, 0]} align="bottom">
        {searchable.map((f, i) => (
          <Col key={f.key} xs={24} sm={12} md={8} xl={f.search === 'range' ? 8 : 6} style={hidden(f, i) ? { display: 'none' } : undefined}>
            <Form.Item name={f.key} label={t(fieldLabelKey(f))} style={{ marginBottom: 12 }}>
              <SearchInput field={f} locale={locale} />
            </Form.Item>
          </Col>
        ))}
        <Col flex="auto">
          <Form.Item style={{ marginBottom: 12 }}>
            <Space wrap style={{ justifyContent: 'flex-end', width: '100%' }}>
              {collapsible && (
                <Button type="link" onClick={() => setExpanded((e) => !e)} data-testid="resource-search-more" style={{ paddingInline: 4 }}>
                  {expanded ? t('form.fewerFilters') : t('form.moreFilters', { n: searchable.filter((f, i) => i >= shown && !inUse(f, list.filters)).length })}
                  {expanded ? <UpOutlined /> : <DownOutlined />}
                </Button>
              )}
              <SearchButtons onReset={list.reset} page={page} />
            </Space>
          </Form.Item>
        </Col>
      </Grid>
    </Form>
  );
}

/**
 * The end of a filter form: the list's saved filters (issue 29: every list's filters live in the URL, which
 * they save and apply), Reset, and Search (the form's submit).
 */
export function SearchButtons({ onReset, page }: { onReset(): void; page?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <SavedFilters page={page} />
      <Button icon={<ReloadOutlined />} onClick={onReset} data-testid="resource-search-reset">
        {t('action.reset')}
      </Button>
      <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="resource-search-submit">
        {t('action.search')}
      </Button>
    </>
  );
}
