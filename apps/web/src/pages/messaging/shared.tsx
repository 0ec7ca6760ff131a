import type { TFunction } from 'i18next';
import type { FieldView, Option, ResourceView } from '../../resources';

/**
 * A messaging declaration for the console: the menu's title, the messaging texts' description
 * (`messaging.describe.<name>`), each field's label in the messaging texts (`messaging.field.<key>`), with
 * the console's hints merged in.
 */
export function messagingView(def: ResourceView, hints: Record<string, Partial<FieldView>> = {}): ResourceView {
  return {
    ...def,
    title: `menu.${def.name}`,
    description: `messaging.describe.${def.name}`,
    fields: def.fields.map((f) => ({ ...f, label: f.label ?? `messaging.field.${f.key}`, ...hints[f.key] })),
  };
}

/** Choices of a coded text field from its labels (`messaging.<group>.<code>`). */
export const codeOptions = (t: TFunction, group: string, codes: readonly string[]): Option[] => codes.map((c) => ({ value: c, label: t(`messaging.${group}.${c}`) }));
