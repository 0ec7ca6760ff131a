import { useMemo, type ComponentType } from 'react';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Flex, Image, Input, Select, Space, Tag, TreeSelect, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatTsh } from '@dau/domain';
import { mallBrandResource, mallCategoryResource, mallProductResource, type MallCategoryNode } from '@dau/contract/ui';
import { api, type ListAnswer } from '../../kit/api';
import { useAccess } from '../../kit/access';
import { areaView, ResourcePage, useLocale, type FieldView, type ResourceView, type Row } from '../../resources';
import { languageField, useLanguageChoices } from '../../resources/languageChoices';
import { MALL_CATEGORIES_KEY, categoryPath, parentChoices, useShownCategories } from './categories';

/**
 * Shop › Categories, Brands, Products (issue 16). Field labels are `shop.field.<key>`, descriptions
 * `shop.describe.<page>`, titles the menu's. The product form picks its category in a tree of the shown
 * categories (fetched at start, spec §7), its brand among the brands, edits its property pairs as rows
 * and its colours as tags; pictures are uploads (the 'image' and 'images' field types).
 */
function shopView(def: ResourceView, hints: Record<string, Partial<FieldView>> = {}): ResourceView {
  return areaView('shop', def, hints);
}

/** Every category, hidden ones included (the category screen's superior picker and names). */
function useAllCategories() {
  const { can } = useAccess();
  return useQuery({
    queryKey: ['mall-categories', 'all'],
    queryFn: async () => (await api.get<{ items: MallCategoryNode[] }>('/shop/categories/all')).items,
    enabled: can('mall_category_list') || can('mall_product_list'),
    staleTime: 30_000,
  });
}

/** After a category is saved, the trees are read again. */
function useRefreshCategories() {
  const qc = useQueryClient();
  return () => {
    void qc.invalidateQueries({ queryKey: ['mall-categories'] });
    void qc.invalidateQueries({ queryKey: MALL_CATEGORIES_KEY });
  };
}

type TreeValueProps = { value?: number | null; onChange?: (v: number | null) => void; disabled?: boolean; placeholder?: string; testId?: string };

/** A category picked in a tree (Form.Item hands value / onChange). */
function CategoryTreeSelect({ nodes, exclude, ...p }: TreeValueProps & { nodes: readonly MallCategoryNode[] | undefined; exclude?: number }) {
  const { t } = useTranslation();
  // A category's own superior: never itself nor one of its descendants.
  const tree = useMemo(() => parentChoices(nodes ?? [], exclude), [nodes, exclude]);
  return (
    <TreeSelect
      treeData={tree}
      value={p.value ? p.value : undefined}
      // Cleared: 0, which the server reads as none (the resource layer takes no null for a number).
      onChange={(v) => p.onChange?.(v === undefined || v === null ? 0 : Number(v))}
      disabled={p.disabled}
      allowClear
      showSearch
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      placeholder={p.placeholder ?? t('shop.pickCategory')}
      style={{ width: '100%' }}
      data-testid={p.testId}
      notFoundContent={t('shop.noCategories')}
    />
  );
}

/** Every category as a filter choice, labelled with its path. */
const categoryOptions = (nodes: readonly MallCategoryNode[] | undefined) =>
  nodes?.map((n) => ({ value: n.id, label: categoryPath(nodes, n.id) })).sort((a, b) => a.label.localeCompare(b.label));

function Thumb({ src }: { src: unknown }) {
  return src ? (
    <Image src={String(src)} width={32} height={32} alt="" style={{ objectFit: 'cover', borderRadius: 6 }} preview={false} />
  ) : (
    <span style={{ display: 'inline-block', width: 32, height: 32, borderRadius: 6, background: 'rgba(127,127,127,.15)' }} />
  );
}

/** Shop › Categories: the tree's superior by name, the icon as a thumbnail. */
function CategoryScreen() {
  const { t } = useTranslation();
  const languages = useLanguageChoices();
  const all = useAllCategories();
  const refresh = useRefreshCategories();
  const nodes = all.data;
  const def = useMemo(
    () =>
      shopView(mallCategoryResource, {
        title: { keep: true, render: (v, row) => <Space size={8}><Thumb src={row.icon} /><Typography.Text strong>{String(v ?? '')}</Typography.Text></Space> },
        icon: { table: false },
        parent_id: {
          // The filter picks among the categories by name (the form has its own tree input).
          options: categoryOptions(nodes),
          render: (v) => (v ? categoryPath(nodes, v) : <Tag>{t('shop.topLevel')}</Tag>),
          input: (ctx) => <CategoryTreeSelect nodes={nodes} exclude={ctx.record ? Number(ctx.record.id) : undefined} placeholder={t('shop.topLevel')} testId="category-parent" />,
          help: 'shop.help.parent_id',
        },
        show_status: { keep: true },
        // Picked in the language list (the server refuses another code).
        language: { help: 'shop.help.language', ...languageField(languages) },
        sort: { help: 'shop.help.sort' },
      }),
    [nodes, t, languages],
  );
  return <ResourcePage def={def} onSaved={refresh} detailTitle={(row) => String(row.title ?? '')} />;
}

/** Shop › Brands. */
function BrandScreen() {
  const def = useMemo(
    () =>
      shopView(mallBrandResource, {
        name: { keep: true, render: (v, row) => <Space size={8}><Thumb src={row.logo} /><Typography.Text strong>{String(v ?? '')}</Typography.Text></Space> },
        logo: { table: false },
        shown: { keep: true },
        sort: { help: 'shop.help.sort' },
      }),
    [],
  );
  return <ResourcePage def={def} detailTitle={(row) => String(row.name ?? '')} />;
}

type Pair = { name: string; value: string };
const readPairs = (v: unknown): Pair[] => {
  try {
    const a = JSON.parse(String(v ?? '[]')) as unknown;
    return Array.isArray(a) ? a.map((p) => ({ name: String((p as Pair).name ?? ''), value: String((p as Pair).value ?? '') })) : [];
  } catch {
    return [];
  }
};

/** Property names and values as rows of two inputs; the form keeps them as the JSON text the API takes. */
function PropertiesInput({ value, onChange, disabled }: { value?: string; onChange?: (v: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const pairs = readPairs(value);
  const set = (next: Pair[]) => onChange?.(JSON.stringify(next));
  return (
    <Flex vertical gap={8} data-testid="product-properties">
      {pairs.map((p, i) => (
        <Flex key={i} gap={8} align="center">
          {(['name', 'value'] as const).map((k) => (
            <Input
              key={k}
              value={p[k]}
              maxLength={k === 'name' ? 64 : 200}
              placeholder={t(k === 'name' ? 'shop.propertyName' : 'shop.propertyValue')}
              aria-label={t(k === 'name' ? 'shop.propertyName' : 'shop.propertyValue')}
              disabled={disabled}
              onChange={(e) => set(pairs.map((x, j) => (j === i ? { ...x, [k]: e.target.value } : x)))}
            />
          ))}
          <Button icon={<DeleteOutlined />} aria-label={t('shop.removeProperty')} disabled={disabled} onClick={() => set(pairs.filter((_, j) => j !== i))} />
        </Flex>
      ))}
      <Button icon={<PlusOutlined />} type="dashed" disabled={disabled || pairs.length >= 30} onClick={() => set([...pairs, { name: '', value: '' }])} data-testid="product-property-add">
        {t('shop.addProperty')}
      </Button>
    </Flex>
  );
}

/** Colours as tags; the API takes them comma-separated. */
function ColoursInput({ value, onChange, disabled }: { value?: string; onChange?: (v: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const list = String(value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  return (
    <Select
      mode="tags"
      value={list}
      onChange={(v: string[]) => onChange?.(v.join(', '))}
      tokenSeparators={[',', '，']}
      maxCount={20}
      open={false}
      suffixIcon={null}
      disabled={disabled}
      placeholder={t('shop.coloursPlaceholder')}
      style={{ width: '100%' }}
      data-testid="product-colours"
    />
  );
}

/** The brands as choices (first 200 by sort), or nothing when the admin may not read them. */
function useBrandChoices() {
  const { can } = useAccess();
  const q = useQuery({
    queryKey: ['mall_brand_list', 'choices'],
    queryFn: () => api.get<ListAnswer<Row>>('/shop/brands', { page: 1, page_size: 200, sort: '-sort' }),
    enabled: can('mall_brand_list'),
    staleTime: 30_000,
    retry: false,
  });
  return useMemo(() => q.data?.items.map((r) => ({ value: Number(r.id), label: String(r.name ?? r.id) })), [q.data]);
}

/** A brand among the brands; cleared: 0, which the server reads as none. */
function BrandSelect({ options, value, onChange, disabled }: { options?: { value: number; label: string }[]; value?: number | null; onChange?: (v: number) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <Select
      options={options}
      value={value ? value : undefined}
      onChange={(v: number | undefined) => onChange?.(v ?? 0)}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={t('form.select')}
      disabled={disabled}
      style={{ width: '100%' }}
      data-testid="product-brand"
    />
  );
}

/** Shop › Products. */
function ProductScreen() {
  const { t } = useTranslation();
  const locale = useLocale();
  const shown = useShownCategories();
  const all = useAllCategories();
  const brands = useBrandChoices();
  // Names of hidden categories too (a product may sit in one); the picker offers the shown ones (spec §7).
  const names = all.data ?? shown.data;
  const def = useMemo(() => {
    const tsh = (v: unknown) => (v === null || v === undefined || v === '' ? '-' : formatTsh(Number(v), locale));
    return shopView(mallProductResource, {
      title: {
        keep: true,
        render: (v, row) => (
          <Space size={8}>
            <Thumb src={Array.isArray(row.cover_images) ? row.cover_images[0] : undefined} />
            <Typography.Text strong>{String(v ?? '')}</Typography.Text>
          </Space>
        ),
      },
      cover_images: { table: false, help: 'shop.help.cover_images' },
      category_id: {
        keep: true,
        options: categoryOptions(names),
        render: (v) => categoryPath(names, v),
        input: () => <CategoryTreeSelect nodes={shown.data} testId="product-category" />,
        help: 'shop.help.category_id',
      },
      brand_id: {
        min: undefined,
        // The filter picks a brand by name (the form has its own input, which can clear it).
        options: brands,
        render: (v) => brands?.find((b) => b.value === Number(v))?.label ?? (v ? `#${String(v)}` : '-'),
        input: () => <BrandSelect options={brands} />,
      },
      price: { keep: true, render: (v) => tsh(v) },
      lowest_price: { render: (v) => tsh(v), help: 'shop.help.lowest_price' },
      properties: {
        input: () => <PropertiesInput />,
        render: (v) => {
          const pairs = readPairs(v);
          return pairs.length ? <Flex vertical>{pairs.map((p, i) => <span key={i}><Typography.Text type="secondary">{p.name}:</Typography.Text> {p.value}</span>)}</Flex> : '-';
        },
      },
      colours: { input: () => <ColoursInput />, render: (v) => (v ? <Space size={4} wrap>{String(v).split(',').map((c) => <Tag key={c}>{c.trim()}</Tag>)}</Space> : '-') },
      ranking: { help: 'shop.help.ranking' },
      home_recommend: { help: 'shop.help.home_recommend' },
    });
  }, [names, shown.data, brands, locale]);
  return <ResourcePage def={def} detailColumns={2} detailTitle={(row) => String(row.title ?? t('menu.mall_product_list'))} />;
}

export const screens: Record<string, ComponentType> = {
  mall_category_list: CategoryScreen,
  mall_brand_list: BrandScreen,
  mall_product_list: ProductScreen,
};
