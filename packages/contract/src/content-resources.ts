import { defineResource, type FieldDef } from './resource.js';

/**
 * Uploads and content (issue 16; spec §2 System, §3 Image storage config and Rotation picture): where
 * uploaded pictures are kept (image_config), banner groups and their pictures (rotation_type, rotation),
 * article types and articles (image_text_type, image_text). Served by apps/server/src/modules/files and
 * apps/server/src/modules/content through the resource layer.
 */

/** Where uploads go: `local` (a folder under the server's data folder) or `s3` (S3-compatible object storage). */
export const UPLOAD_TYPES = ['local', 's3'] as const;
export type UploadType = (typeof UPLOAD_TYPES)[number];

/** The picture types an upload may be (checked by content, never by name): no SVG (it can carry script). */
export const UPLOAD_KINDS = ['png', 'jpeg', 'gif', 'webp'] as const;

/** System › Image storage config (spec §3): one record. The access key secret is write-only. */
export const imageConfigResource = /* @__PURE__ */ defineResource({
  name: 'image_config',
  page: 'image_config',
  api: '/system/image_config',
  kind: 'singleton',
  actions: ['edit'],
  duty: { two: ['upload_type', 'domain', 'region', 'access_key_id', 'access_key_secret', 'bucket'] },
  fields: [
    /** 'local' or 's3' (labels content.uploadType.<code>). */
    { key: 'upload_type', type: 'text', editable: true, required: true, maxLength: 8, labels: 'content.uploadType', default: 'local' },
    /** The S3 endpoint, e.g. https://s3.example.com (path-style addressing). */
    { key: 'domain', type: 'text', editable: true, maxLength: 300 },
    { key: 'region', type: 'text', editable: true, maxLength: 64 },
    { key: 'access_key_id', type: 'text', editable: true, maxLength: 128 },
    { key: 'access_key_secret', type: 'text', editable: true, maxLength: 256, writeOnly: true, table: false, detail: false },
    { key: 'bucket', type: 'text', editable: true, maxLength: 63 },
    /** Folder (key prefix) inside the bucket or under the data folder's uploads, e.g. `console/`. */
    { key: 'save_path', type: 'text', editable: true, maxLength: 200 },
    /** Largest upload in bytes (default 5 MB). */
    { key: 'max_size', type: 'number', editable: true, required: true, min: 1024, max: 50 * 1024 * 1024, default: 5 * 1024 * 1024 },
    /** Comma-separated among png, jpeg, gif, webp. */
    { key: 'allowed_types', type: 'text', editable: true, required: true, maxLength: 64, default: 'png,jpeg,gif,webp' },
    { key: 'updated_at', type: 'datetime' },
  ],
});

const stamps: FieldDef[] = [
  { key: 'created_at', type: 'datetime', table: false },
  { key: 'updated_at', type: 'datetime', sortable: true },
];

/** System › Rotation picture types: the banner groups (e.g. `home_top`), each a place on the bettor site. */
export const rotationTypeResource = /* @__PURE__ */ defineResource({
  name: 'rotation_type',
  page: 'rotation_type',
  api: '/content/rotation_types',
  kind: 'list',
  defaultSort: 'id',
  actions: ['create', 'edit', 'delete'],
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    /** The code the bettor site asks for (lower case letters, digits, _ and -). */
    { key: 'code', type: 'text', search: 'like', createOnly: true, required: true, maxLength: 32 },
    { key: 'name', type: 'text', search: 'like', editable: true, required: true, maxLength: 64 },
    { key: 'remarks', type: 'text', editable: true, maxLength: 200 },
    ...stamps,
  ],
});

/** System › Rotation pictures (spec §3): a banner of a group, shown between its start and end, larger sorting first. */
export const rotationResource = /* @__PURE__ */ defineResource({
  name: 'rotation',
  page: 'rotation',
  api: '/content/rotations',
  kind: 'list',
  defaultSort: '-sort',
  actions: ['create', 'edit', 'delete'],
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    /** rotation_types.id. */
    { key: 'type_id', type: 'number', search: 'exact', editable: true, required: true, min: 1 },
    { key: 'picture', type: 'image', editable: true, required: true, maxLength: 500 },
    { key: 'title', type: 'text', search: 'like', editable: true, required: true, maxLength: 100 },
    { key: 'description', type: 'textarea', editable: true, maxLength: 500, table: false },
    /** Where a click goes: an in-app route (`/sports/1`) or an https address. */
    { key: 'jump_url', type: 'text', editable: true, maxLength: 500 },
    { key: 'jump_type', type: 'enum', enum: 'picture_jump_type', search: 'exact', editable: true, required: true, default: 1 },
    /** Larger ranks higher. */
    { key: 'sort', type: 'number', sortable: true, editable: true, min: 0, max: 1_000_000, default: 0 },
    { key: 'clicks', type: 'number', sortable: true },
    { key: 'shown', type: 'switch', search: 'exact', editable: true, default: true },
    { key: 'start_at', type: 'datetime', sortable: true, editable: true },
    { key: 'end_at', type: 'datetime', sortable: true, editable: true },
    { key: 'remarks', type: 'text', editable: true, maxLength: 200, table: false },
    ...stamps,
  ],
});

/** System › Picture and text types: the kinds of article (news, help, terms...). */
export const imageTextTypeResource = /* @__PURE__ */ defineResource({
  name: 'image_text_type',
  page: 'image_text_type',
  api: '/content/image_text_types',
  kind: 'list',
  defaultSort: '-sort',
  actions: ['create', 'edit', 'delete'],
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    { key: 'code', type: 'text', search: 'like', createOnly: true, required: true, maxLength: 32 },
    { key: 'name', type: 'text', search: 'like', editable: true, required: true, maxLength: 64 },
    { key: 'sort', type: 'number', sortable: true, editable: true, min: 0, max: 1_000_000, default: 0 },
    { key: 'remarks', type: 'text', editable: true, maxLength: 200 },
    ...stamps,
  ],
});

/** The longest article body (sanitised HTML). */
export const ARTICLE_BODY_MAX = 100_000;

/** System › Picture and text (documents): an article of a type in one language; its body is sanitised HTML. */
export const imageTextResource = /* @__PURE__ */ defineResource({
  name: 'image_text',
  page: 'image_text',
  api: '/content/image_texts',
  kind: 'list',
  defaultSort: '-sort',
  fetchDetail: true,
  actions: ['create', 'edit', 'delete'],
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 70 },
    /** image_text_types.id. */
    { key: 'type_id', type: 'number', search: 'exact', editable: true, required: true, min: 1 },
    { key: 'title', type: 'text', search: 'like', editable: true, required: true, maxLength: 200 },
    { key: 'cover', type: 'image', editable: true, maxLength: 500 },
    /** HTML, cleaned by the server to an allow-list of tags and attributes. */
    { key: 'body', type: 'textarea', editable: true, required: true, maxLength: ARTICLE_BODY_MAX, table: false },
    /** A locale code (en-US, sw-KE, zh-CN...). */
    { key: 'language', type: 'text', search: 'exact', editable: true, required: true, maxLength: 16, check: 'locale', default: 'en-US' },
    { key: 'shown', type: 'switch', search: 'exact', editable: true, default: true },
    { key: 'sort', type: 'number', sortable: true, editable: true, min: 0, max: 1_000_000, default: 0 },
    ...stamps,
  ],
});
