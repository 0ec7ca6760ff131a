import { useSyncExternalStore } from 'react';

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
