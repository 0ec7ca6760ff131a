import { bigint, boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The shop (issue 16): categories (a tree through parent_id), brands and products. Money is integer cents
 * of TSh (bigint). Pictures are addresses of uploads (`/uploads/<sha256>.<ext>`) or https URLs; lists of
 * pictures are jsonb arrays of such strings (field type 'images').
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const cents = (name: string) => bigint(name, { mode: 'number' });

/** mall_category_list: a category, top level when parent_id is null. */
export const mallCategories = pgTable(
  'mall_categories',
  {
    id: serial('id').primaryKey(),
    /** The superior category; the service refuses cycles (no FK cascade: a category in use is not deleted). */
    parentId: integer('parent_id'),
    title: text('title').notNull(),
    icon: text('icon'),
    /** 1 shown, 2 hidden (MALL_SHOW_STATUS). */
    showStatus: smallint('show_status').notNull().default(1),
    /** Locale code of the title. */
    language: text('language').notNull().default('en-US'),
    sort: integer('sort').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('mall_categories_parent').on(t.parentId), index('mall_categories_shown').on(t.showStatus, t.sort)],
);

/** mall_brand_list. */
export const mallBrands = pgTable('mall_brands', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  logo: text('logo'),
  sort: integer('sort').notNull().default(0),
  shown: boolean('shown').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** mall_product_list (spec §3 Mall product). */
export const mallProducts = pgTable(
  'mall_products',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    categoryId: integer('category_id').notNull(),
    brandId: integer('brand_id'),
    source: text('source'),
    model: text('model'),
    price: cents('price').notNull(),
    lowestPrice: cents('lowest_price'),
    stock: integer('stock').notNull().default(0),
    purchaseCount: integer('purchase_count').notNull().default(0),
    ranking: integer('ranking').notNull().default(0),
    homeRecommend: boolean('home_recommend').notNull().default(false),
    shown: boolean('shown').notNull().default(true),
    /** Ordered picture addresses (jsonb array of strings). */
    coverImages: jsonb('cover_images').$type<string[]>().notNull().default([]),
    detailImages: jsonb('detail_images').$type<string[]>().notNull().default([]),
    /** [{ name, value }] in the operator's order. */
    properties: jsonb('properties').$type<{ name: string; value: string }[]>().notNull().default([]),
    colours: text('colours').array().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('mall_products_category').on(t.categoryId), index('mall_products_brand').on(t.brandId), index('mall_products_home').on(t.homeRecommend, t.ranking)],
);
