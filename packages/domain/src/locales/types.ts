import type { DisplayKey } from '../display';
import type { EnumDefs, EnumName } from '../enums';

/** A label for every value of every enumeration, keyed by the value's stable identifier. */
export type EnumLabelTable = { readonly [N in EnumName]: { readonly [K in keyof EnumDefs[N]]: string } };

/** The shape every locale file must have: tsc refuses a missing or misspelt enumeration or value. */
export interface DomainLabels {
  readonly enums: EnumLabelTable;
  /** Labels of the display identifiers of spec §4 (outcome status 1, 4, 5 -> pending; 8, 9 -> return). */
  readonly display: { readonly [K in DisplayKey]: string };
}
