import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Spec §3 Image storage config (singleton row id 1): where new uploads go. The access key secret is
 * stored sealed with the casino secret key when DAU_CASINO_SECRET_KEY is set (sealSecret).
 */
export const imageConfig = pgTable('image_config', {
  id: integer('id').primaryKey(),
  uploadType: text('upload_type').notNull().default('local'),
  domain: text('domain').notNull().default(''),
  region: text('region').notNull().default(''),
  accessKeyId: text('access_key_id').notNull().default(''),
  accessKeySecret: text('access_key_secret').notNull().default(''),
  bucket: text('bucket').notNull().default(''),
  savePath: text('save_path').notNull().default(''),
  maxSize: integer('max_size').notNull().default(5 * 1024 * 1024),
  allowedTypes: text('allowed_types').notNull().default('png,jpeg,gif,webp'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * Every stored upload, by name (`<sha256>.<ext>`): where its bytes are (the storage and key it was written
 * to), so /uploads/<name> still serves it after the storage config changes. The same content uploaded
 * twice is one row.
 */
export const uploads = pgTable(
  'uploads',
  {
    name: text('name').primaryKey(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    storage: text('storage').notNull(),
    bucket: text('bucket').notNull().default(''),
    objectKey: text('object_key').notNull(),
    uploadedBy: integer('uploaded_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('uploads_created_at_idx').on(t.createdAt)],
);
