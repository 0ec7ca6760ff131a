/**
 * The operator's calendar: Tanzania keeps East Africa Time (UTC+03:00) all year, with no daylight saving,
 * so a day of the book is a fixed 24-hour window and an hour a fixed offset from UTC.
 */
export const TIME_ZONE = 'Africa/Dar_es_Salaam';
export const UTC_OFFSET = '+03:00';
const OFFSET_MS = 3 * 3_600_000;
const DAY_MS = 86_400_000;

/** The operator's calendar day (YYYY-MM-DD) of an instant. */
export const localDay = (d: Date | number) => new Date((typeof d === 'number' ? d : d.getTime()) + OFFSET_MS).toISOString().slice(0, 10);
/** The operator's hour of day (0-23) of an instant. */
export const localHour = (d: Date | number) => new Date((typeof d === 'number' ? d : d.getTime()) + OFFSET_MS).getUTCHours();
/** The instant a local day starts (00:00 in Dar es Salaam = 21:00 UTC the day before). */
export const dayStart = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - OFFSET_MS);
/** Whether a string is a real calendar day (YYYY-MM-DD). */
export const isDay = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s;
export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

