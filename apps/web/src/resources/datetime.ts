import dayjs from '../kit/dayjs';
import { inZone } from '../kit/timeZone';

/**
 * Times as the console writes them. Apart from FieldValue (which renders every field type, images and
 * colours included), so that a screen that only formats times (the landing page's bet ticker) does not load it.
 */
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** An ISO instant (UTC on the wire) as wall time in the operator's zone (kit/timeZone). */
export const formatDateTime = (value: unknown): string => {
  if (value === null || value === undefined || value === '') return '';
  if (!dayjs(value as string).isValid()) return String(value);
  return inZone(value as string).format(DATETIME_FORMAT);
};
