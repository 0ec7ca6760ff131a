import type { ReactNode } from 'react';
import type { FormRule as Rule } from 'antd';
import type { FieldDef, ResourceDef } from '@dau/contract';

/** A row of a list (or a singleton record) as the server answers it: the fields' keys, snake_case. */
export type Row = Record<string, unknown>;

export type FormMode = 'create' | 'edit';

export interface Option {
  value: string | number;
  label: ReactNode;
}

/** What a field-level hook receives: the form's mode and, when editing, the record. */
export interface FieldContext {
  mode: FormMode;
  record?: Row;
}

/**
 * A contract field plus the console-only hints a hand-written screen may add. The resource layer reads
 * a plain FieldDef the same way: every hint is optional.
 */
export interface FieldView extends FieldDef {
  /** Replaces the typed renderer in the table and the detail drawer (`variant` says which: a table cell is kept short). */
  render?: (value: unknown, row: Row, variant?: 'table' | 'detail') => ReactNode;
  /** Choices when they do not come from a domain enumeration (e.g. roles loaded from the server). */
  options?: readonly Option[];
  /** Extra form rules, checked after the generic ones. */
  rules?: Rule[];
  /** Text shown when a required value is missing (default: "Please enter <label>"). */
  requiredMessage?: string;
  /** A form input of its own (the generic one is chosen from the type). */
  input?: (ctx: FieldContext) => ReactNode;
  /** Placeholder of the form input. */
  placeholder?: string;
  /** A locale key (or text) of a help line under the form input: how the value is read. */
  help?: ReactNode;
  /** The input is shown but locked, and its value is not sent. */
  disabled?: (ctx: FieldContext) => boolean;
}

/** A resource declaration as the console reads it: the contract's, or a screen's own with FieldView hints. */
export interface ResourceView extends Omit<ResourceDef, 'fields'> {
  fields: readonly FieldView[];
  /**
   * The record inside the answer of GET {api}/:id when it is not the row itself (e.g. an order's
   * `{ order, lines, history }`). Default: the answer is the row.
   */
  detailOf?: (answer: unknown) => Row | undefined;
}

export const rowKeyOf = (row: Row): string | number => (row.id as string | number | undefined) ?? JSON.stringify(row);
