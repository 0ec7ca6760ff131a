import type { FieldView, ResourceView } from './types';

/**
 * A declaration of an area's screen (casino, jackpot, TRON, SMS …) as the console shows it: the menu's title
 * of its page (`menu.<name>`), the area's description of it (`<area>.describe.<name>`), each field's label in
 * the area's texts (`<area>.field.<key>`, unless the declaration names one), with the screen's hints (renderers,
 * inputs, help lines) merged in; `extra` goes over it all (e.g. a title or description of its own).
 */
export function areaView(area: string, def: ResourceView, hints: Record<string, Partial<FieldView>> = {}, extra: Partial<ResourceView> = {}): ResourceView {
  return {
    ...def,
    title: `menu.${def.name}`,
    description: `${area}.describe.${def.name}`,
    fields: def.fields.map((f) => ({ ...f, label: f.label ?? `${area}.field.${f.key}`, ...hints[f.key] })),
    ...extra,
  };
}
