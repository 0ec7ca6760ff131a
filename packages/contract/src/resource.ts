/**
 * The resource layer (docs/architecture.md): one declaration per simple screen, shared by server and console.
 * From a ResourceDef the server builds validated, permission-checked list/get/create/update/delete/export
 * routes; the console builds the search form, table, detail drawer and create/edit form.
 */
import type { MessageCode } from '@dau/domain';

/**
 * `image`: one picture, a text column holding its address (an upload's `/uploads/<sha256>.<ext>` or an
 * https URL); the console shows an upload with a preview. `images`: an ordered list of up to `max`
 * (default 10) such addresses, a jsonb column holding a JSON array of strings; answered as an array.
 */
export type FieldType =
  | 'text' | 'textarea' | 'number' | 'money' | 'odds' | 'enum' | 'datetime' | 'image' | 'images' | 'switch' | 'color' | 'json';

export type SearchMode = 'exact' | 'like' | 'range';

export interface FieldDef {
  /** API key, snake_case; the server maps it to the camelCase column unless `column` says otherwise. */
  key: string;
  type: FieldType;
  /** Locale key of the label; defaults to `field.<key>`. */
  label?: string;
  /** For `enum`: the domain enumeration whose ids and labels the field takes. */
  enum?: string;
  search?: SearchMode;
  sortable?: boolean;
  /** Shown as a table column (default true). */
  table?: boolean;
  /** Can be set on create / changed on edit. */
  editable?: boolean;
  /** Only settable on create. */
  createOnly?: boolean;
  required?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  /** Named server-side check beyond the type (e.g. 'ip' for IP or CIDR, 'json' for JSON objects, 'locale'). */
  check?: 'ip' | 'json' | 'color' | 'locale';
  /** Default value for the create form. */
  default?: string | number | boolean;
  /** Column width hint in the table. */
  width?: number;
  /**
   * What identifies a row to its reader (a bettor's phone, the teams of a match, the time of a bill): the
   * list keeps this column when it fits its columns to a narrow screen; the others give way first.
   */
  keep?: boolean;
  /** For a text field holding codes: the locale key prefix of their labels (`<labels>.<value>`). */
  labels?: string;
  /** Shown in the detail view (default true); a search-only field (e.g. a date range filter) says false. */
  detail?: boolean;
  /**
   * A secret that is written, never read (e.g. a provider's shared secret): never in an answer, an export
   * or an audit row; on edit an empty value keeps the stored one. Declare it `table: false, detail: false`.
   */
  writeOnly?: boolean;
}

export type ResourceAction = 'create' | 'edit' | 'delete' | 'export';

export interface ResourceDef {
  name: string;
  /** The page path of the permission catalogue; actions check `page:action`. */
  page: string;
  /** Route under /api/v1. */
  api: string;
  /** A list of rows, or one settings record (`singleton`). */
  kind: 'list' | 'singleton';
  fields: readonly FieldDef[];
  actions: readonly ResourceAction[];
  /** Default sort, e.g. '-id'. */
  defaultSort?: string;
  /**
   * A setting of the whole product (DESIGN "Duties"): every write is the whole book's (403 WHOLE_BOOK_ONLY to a
   * branch); a change of a field in `two` (a created row holding one, an edit changing one) and, with
   * `twoDelete`, a delete wait for a second whole-book admin's approval. Absent: rows any holder of the page's
   * buttons may write within their scope. `writes`: the writes it covers (default all). `twoCreate`: a created row holding one of `two` waits too.
   */
  duty?: { two?: readonly string[]; twoCreate?: boolean; twoDelete?: boolean; writes?: readonly ResourceAction[] };
  /** Locale key of a sentence shown under the title. */
  description?: string;
  /** Locale key of the title (default `resource.<name>.title`). */
  title?: string;
  /** Whether the console reloads a row with GET {api}/:id for its detail view (default true). Console only. */
  fetchDetail?: boolean;
  /**
   * The name of the list for background exports (POST /exports { type, format, params }). When set, the
   * console's export offers CSV and XLSX as an async job instead of downloading `{api}/export`. Console only.
   */
  exportType?: string;
  /**
   * A query screen: the list is not asked for until one of these filters has a value; meanwhile the
   * console shows `message` (a domain message code). The server checks its own rule. Console only.
   */
  requiredFilters?: { anyOf: readonly string[]; message: MessageCode };
}

/** The path POST /api/v1/file/add answers for an uploaded picture: the sha256 of its content and its sniffed type. */
export const UPLOAD_PATH = /^\/uploads\/[0-9a-f]{64}\.(png|jpg|gif|webp)$/;
/** The most pictures an `images` field holds when its declaration sets no `max`. */
export const IMAGES_MAX = 10;
export const imagesMax = (f: FieldDef) => f.max ?? IMAGES_MAX;

/** A picture's address an image field accepts: one of our uploads, or an https URL (no other scheme, no spaces or quotes). */
export function isImageRef(v: string): boolean {
  if (UPLOAD_PATH.test(v)) return true;
  if (!/^https:\/\/[^\s"'<>\\]+$/.test(v) || v.length > 500) return false;
  try {
    return new URL(v).protocol === 'https:';
  } catch {
    return false;
  }
}

export const defineResource = <T extends ResourceDef>(def: T): T => def;

export const fieldLabelKey = (f: FieldDef) => f.label ?? `field.${f.key}`;
export const inTable = (f: FieldDef) => f.table !== false && !f.writeOnly;
/** The fields an answer carries (every field but the write-only ones). */
export const readableFields = (fields: readonly FieldDef[]) => fields.filter((f) => !f.writeOnly);
export const isEditable = (f: FieldDef, mode: 'create' | 'edit') => (mode === 'create' ? !!(f.editable || f.createOnly) : !!f.editable && !f.createOnly);
