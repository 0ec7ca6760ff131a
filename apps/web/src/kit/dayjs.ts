/**
 * The console's dayjs: with the time-zone plugins, speaking the console's language (month and day names),
 * set where dayjs is first loaded and on every switch. Import dayjs from here, not from 'dayjs': this
 * module is then sure to run first (the sign-in page does not load dayjs at all).
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';
import timezone from 'dayjs/plugin/timezone';
import 'dayjs/locale/sw';
import 'dayjs/locale/zh-cn';
import i18n, { startedLocale } from '../locales';

dayjs.extend(utc);
dayjs.extend(timezone);

const DAYJS_LOCALE: Record<string, string> = { 'en-US': 'en', 'sw-KE': 'sw', 'zh-CN': 'zh-cn' };
const followLanguage = (lng: string | undefined) => {
  dayjs.locale(DAYJS_LOCALE[lng ?? ''] ?? 'en');
};
followLanguage(i18n.language ?? startedLocale());
i18n.on('languageChanged', followLanguage);

export type { Dayjs } from 'dayjs';
export default dayjs;
