import { useSyncExternalStore } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The operator's time zone (DESIGN "Time"): every time the console shows — lists, details, charts, the
 * "as of" of the live figures — is wall time in this zone, whatever the browser's zone. It is the signed-in
 * admin's preference (GET /auth/preferences), Africa/Dar_es_Salaam until they choose another.
 */
export const DEFAULT_TIME_ZONE = 'Africa/Dar_es_Salaam';

let zone = DEFAULT_TIME_ZONE;
const listeners = new Set<() => void>();

export const isTimeZone = (z: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: z });
    return true;
  } catch {
    return false;
  }
};

/** The zone now in force. */
export const timeZone = () => zone;

/** Sets the zone (an unknown name keeps the current one); screens that read it through useTimeZone re-render. */
export function setTimeZone(next: string | null | undefined) {
  const z = next && isTimeZone(next) ? next : DEFAULT_TIME_ZONE;
  if (z === zone) return;
  zone = z;
  listeners.forEach((fn) => fn());
}

const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};

/** The zone, as React state: a change re-renders the caller. */
export const useTimeZone = () => useSyncExternalStore(subscribe, timeZone, timeZone);

/** An instant (ISO string, epoch ms, Date) as a dayjs in the operator's zone. */
export const inZone = (value: string | number | Date) => dayjs(value).tz(zone);

/** The zone's offset from UTC at an instant, "+03:00". */
export function utcOffset(z: string = zone, at: number = Date.now()): string {
  return dayjs(at).tz(z).format('Z');
}

/** The zone as operators name it: "Dar es Salaam (UTC+03:00)". */
export function zoneLabel(z: string = zone): string {
  const city = z.split('/').pop()!.replace(/_/g, ' ');
  return `${city} (UTC${utcOffset(z)})`;
}

const DAY = 'YYYY-MM-DD';

/** The instant a calendar day (as a date picker gives it) starts in the operator's zone, ISO. */
export const dayStartIso = (d: Dayjs) => dayjs.tz(d.format(DAY), zone).toISOString();
/** The last millisecond of a calendar day in the operator's zone, ISO. */
export const dayEndIso = (d: Dayjs) => new Date(dayjs.tz(d.add(1, 'day').format(DAY), zone).valueOf() - 1).toISOString();
/** The operator's calendar day of an instant, as a plain date for a date picker. */
export const zonedDay = (value: string | number | Date) => dayjs(inZone(value).format(DAY), DAY);
/** Today in the operator's zone, as a plain date for a date picker. */
export const zonedToday = () => zonedDay(Date.now());

const WALL = 'YYYY-MM-DD HH:mm:ss';
/** An instant as a plain dayjs showing the operator's wall time (what a date-time input edits). */
export const zonedWallTime = (value: string | number | Date) => dayjs(inZone(value).format(WALL), WALL);
/** A wall time edited in a date-time input, read in the operator's zone, as an ISO instant. */
export const wallTimeIso = (d: Dayjs) => dayjs.tz(d.format(WALL), zone).toISOString();
