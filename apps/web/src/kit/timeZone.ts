import dayjs, { type Dayjs } from './dayjs';
import { timeZone } from './zone';

/**
 * Times in the operator's zone (./zone keeps the zone itself, without dayjs, so that the sign-in page,
 * which only sets it, does not load dayjs).
 */
export { DEFAULT_TIME_ZONE, isTimeZone, setTimeZone, timeZone, useTimeZone } from './zone';

/** An instant (ISO string, epoch ms, Date) as a dayjs in the operator's zone. */
export const inZone = (value: string | number | Date) => dayjs(value).tz(timeZone());

/** The zone's offset from UTC at an instant, "+03:00". */
export function utcOffset(z: string = timeZone(), at: number = Date.now()): string {
  return dayjs(at).tz(z).format('Z');
}

/** The zone as operators name it: "Dar es Salaam (UTC+03:00)". */
export function zoneLabel(z: string = timeZone()): string {
  const city = z.split('/').pop()!.replace(/_/g, ' ');
  return `${city} (UTC${utcOffset(z)})`;
}

const DAY = 'YYYY-MM-DD';

/** The instant a calendar day (as a date picker gives it) starts in the operator's zone, ISO. */
export const dayStartIso = (d: Dayjs) => dayjs.tz(d.format(DAY), timeZone()).toISOString();
/** The last millisecond of a calendar day in the operator's zone, ISO. */
export const dayEndIso = (d: Dayjs) => new Date(dayjs.tz(d.add(1, 'day').format(DAY), timeZone()).valueOf() - 1).toISOString();
/** The operator's calendar day of an instant, as a plain date for a date picker. */
export const zonedDay = (value: string | number | Date) => dayjs(inZone(value).format(DAY), DAY);
/** Today in the operator's zone, as a plain date for a date picker. */
export const zonedToday = () => zonedDay(Date.now());

const WALL = 'YYYY-MM-DD HH:mm:ss';
/** An instant as a plain dayjs showing the operator's wall time (what a date-time input edits). */
export const zonedWallTime = (value: string | number | Date) => dayjs(inZone(value).format(WALL), WALL);
/** A wall time edited in a date-time input, read in the operator's zone, as an ISO instant. */
export const wallTimeIso = (d: Dayjs) => dayjs.tz(d.format(WALL), timeZone()).toISOString();
