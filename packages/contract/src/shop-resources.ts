import { defineResource } from './resource.js';

/**
 * The shop (issue 16, spec §2 System › mall_*, §3 Mall product): categories (a tree), brands and products,
 * served by the resource layer (apps/server/src/modules/shop adds the checks: no cycle in the tree, a
 * category or brand in use is not deleted, references exist, property pairs and colours well formed).
 * Money in cents of TSh. Pictures are uploads (field types 'image' and 'images').
 */

/** Shop › Categories (mall_category_list): superior, icon, show status, language, title, sort. */
export const mallCategoryResource = /* @__PURE__ */ defineResource({
  name: 'mall_category_list',
  page: 'mall_category_list',
  api: '/shop/categories',
  kind: 'list',
  defaultSort: '-sort',
  actions: ['create', 'edit', 'delete', 'export'],
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    { key: 'title', type: 'text', search: 'like', editable: true, required: true, maxLength: 64 },
    /** The superior category (mall_categories.id); empty (or 0 on edit, which clears it) for a top-level category. */
    { key: 'parent_id', type: 'number', search: 'exact', editable: true, min: 0 },
    { key: 'icon', type: 'image', editable: true, maxLength: 500 },
    /** 1 shown, 2 hidden (MALL_SHOW_STATUS): the bettor app and the console's pickers take the shown ones. */
    { key: 'show_status', type: 'enum', enum: 'mall_show_status', search: 'exact', editable: true, required: true, default: 1 },
    /** Locale code of the category's title (en-US, sw-KE, zh-CN, ...). */
    { key: 'language', type: 'text', search: 'exact', editable: true, required: true, maxLength: 16, check: 'locale', default: 'en-US' },
    /** Larger ranks higher. */
    { key: 'sort', type: 'number', sortable: true, editable: true, min: 0, max: 1_000_000, default: 0 },
    { key: 'created_at', type: 'datetime', table: false },
    { key: 'updated_at', type: 'datetime', sortable: true },
  ],
});

/** Shop › Brands (mall_brand_list). */
export const mallBrandResource = /* @__PURE__ */ defineResource({
  name: 'mall_brand_list',
  page: 'mall_brand_list',
  api: '/shop/brands',
  kind: 'list',
  defaultSort: '-sort',
  actions: ['create', 'edit', 'delete', 'export'],
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    { key: 'name', type: 'text', search: 'like', editable: true, required: true, maxLength: 64 },
    { key: 'logo', type: 'image', editable: true, maxLength: 500 },
    { key: 'sort', type: 'number', sortable: true, editable: true, min: 0, max: 1_000_000, default: 0 },
    { key: 'shown', type: 'switch', search: 'exact', editable: true, default: true },
    { key: 'created_at', type: 'datetime', table: false },
    { key: 'updated_at', type: 'datetime', sortable: true },
  ],
});

/** Most cover pictures of a product; most detail pictures. */
export const MALL_COVER_IMAGES_MAX = 9;
export const MALL_DETAIL_IMAGES_MAX = 20;
/** Most property pairs and colours of a product. */
export const MALL_PROPERTIES_MAX = 30;
export const MALL_COLOURS_MAX = 20;

/** Shop › Products (mall_product_list), spec §3 Mall product. */
export const mallProductResource = /* @__PURE__ */ defineResource({
  name: 'mall_product_list',
  page: 'mall_product_list',
  api: '/shop/products',
  kind: 'list',
  defaultSort: '-id',
  actions: ['create', 'edit', 'delete', 'export'],
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    { key: 'title', type: 'text', search: 'like', editable: true, required: true, maxLength: 120 },
    { key: 'cover_images', type: 'images', editable: true, max: MALL_COVER_IMAGES_MAX },
    /** mall_categories.id (a tree select of the shown categories in the console). */
    { key: 'category_id', type: 'number', search: 'exact', editable: true, required: true, min: 1 },
    /** mall_brands.id; 0 on edit clears it (no brand). */
    { key: 'brand_id', type: 'number', search: 'exact', editable: true, min: 0 },
    { key: 'model', type: 'text', search: 'like', editable: true, maxLength: 64 },
    /** Where the product comes from (a supplier, a partner shop, own stock). */
    { key: 'source', type: 'text', search: 'like', editable: true, maxLength: 64, table: false },
    { key: 'price', type: 'money', sortable: true, editable: true, required: true, min: 0, max: 100_000_000_00 },
    /** The "from" price shown on a listing (at most the price). */
    { key: 'lowest_price', type: 'money', sortable: true, editable: true, min: 0, max: 100_000_000_00 },
    { key: 'stock', type: 'number', sortable: true, editable: true, min: 0, max: 100_000_000, default: 0 },
    { key: 'purchase_count', type: 'number', sortable: true, editable: true, min: 0, max: 2_000_000_000, default: 0 },
    /** Larger ranks higher. */
    { key: 'ranking', type: 'number', sortable: true, editable: true, min: 0, max: 1_000_000, default: 0 },
    { key: 'home_recommend', type: 'switch', search: 'exact', editable: true, default: false },
    { key: 'shown', type: 'switch', search: 'exact', editable: true, default: true },
    /** Property names and values: a JSON array of { name, value } (e.g. [{"name":"Size","value":"XL"}]). */
    { key: 'properties', type: 'json', editable: true, maxLength: 10_000, table: false },
    /** Colours, comma-separated (stored as a list). */
    { key: 'colours', type: 'text', editable: true, maxLength: 1000, table: false },
    { key: 'detail_images', type: 'images', editable: true, max: MALL_DETAIL_IMAGES_MAX, table: false },
    { key: 'created_at', type: 'datetime', search: 'range', table: false },
    { key: 'updated_at', type: 'datetime', sortable: true },
  ],
});

/** A category as GET /shop/categories/all answers it (spec §7: the console fetches the shown ones at start). */
export interface MallCategoryNode {
  id: number;
  parent_id: number | null;
  title: string;
  icon: string | null;
  language: string;
  show_status: number;
  sort: number;
}
