import { areaView, type FieldView, type ResourceView } from '../../resources';

/**
 * An SMS declaration for the console: the menu's title, the SMS texts' description (`sms.describe.<name>`),
 * each field's label in the SMS texts (`sms.field.<key>`), with the console's hints merged in.
 */
export function smsView(def: ResourceView, hints: Record<string, Partial<FieldView>> = {}): ResourceView {
  return areaView('sms', def, hints);
}

/** Tag colours of a recipient's state. */
export const RECIPIENT_COLOR: Record<string, string | undefined> = { queued: 'default', sending: 'processing', sent: 'blue', delivered: 'green', failed: 'red' };
