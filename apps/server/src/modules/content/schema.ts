import { boolean, index, integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Banner groups (spec rotation_type): a place on the bettor site, asked for by code. */
export const rotationTypes = pgTable('rotation_types', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  remarks: text('remarks').notNull().default(''),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Banner pictures (spec §3 Rotation picture). */
export const rotations = pgTable(
  'rotations',
  {
    id: serial('id').primaryKey(),
    typeId: integer('type_id').notNull().references(() => rotationTypes.id),
    picture: text('picture').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    jumpUrl: text('jump_url').notNull().default(''),
    jumpType: smallint('jump_type').notNull().default(1),
    sort: integer('sort').notNull().default(0),
    clicks: integer('clicks').notNull().default(0),
    shown: boolean('shown').notNull().default(true),
    startAt: ts('start_at'),
    endAt: ts('end_at'),
    remarks: text('remarks').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('rotations_type_sort_idx').on(t.typeId, t.sort)],
);

/** Article types (spec image_text_type). */
export const imageTextTypes = pgTable('image_text_types', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  sort: integer('sort').notNull().default(0),
  remarks: text('remarks').notNull().default(''),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** Articles (spec image_text, "picture and text" / documents): the body is sanitised HTML. */
export const imageTexts = pgTable(
  'image_texts',
  {
    id: serial('id').primaryKey(),
    typeId: integer('type_id').notNull().references(() => imageTextTypes.id),
    title: text('title').notNull(),
    cover: text('cover').notNull().default(''),
    body: text('body').notNull().default(''),
    language: text('language').notNull().default('en-US'),
    shown: boolean('shown').notNull().default(true),
    sort: integer('sort').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('image_texts_type_language_idx').on(t.typeId, t.language, t.sort)],
);
