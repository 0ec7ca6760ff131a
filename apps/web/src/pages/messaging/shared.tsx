import { areaView, type FieldView, type Option, type ResourceView } from '../../resources';

/**
 * A messaging declaration for the console: the menu's title, the messaging texts' description
 * (`messaging.describe.<name>`), each field's label in the messaging texts (`messaging.field.<key>`), with
 * the console's hints merged in.
 */
export function messagingView(def: ResourceView, hints: Record<string, Partial<FieldView>> = {}): ResourceView {
  return areaView('messaging', def, hints);
}

/** Choices of a coded text field, each with its label. */
export const codeOptions = (codes: readonly string[], label: (code: string) => string): Option[] => codes.map((c) => ({ value: c, label: label(c) }));
