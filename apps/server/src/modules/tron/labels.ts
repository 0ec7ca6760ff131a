import { normalizeLocale, type Locale } from '@dau/domain';

/**
 * The words of the TRON exports (issue 29) in the asker's language: a transfer's direction and state, a
 * sweep's kind and state. The console says the same in its tron texts (apps/web/src/locales/<lang>/tron.ts);
 * a confirmed transfer reads "Credited" when it came in (a deposit) and "Sent" when it went out.
 */
const TEXTS: Record<Locale, Record<string, string>> = {
  'en-US': {
    in: 'In', out: 'Out', seen: 'Awaiting confirmations', credited: 'Credited', sent: 'Sent', failed: 'Failed', reorganised: 'Reorganised',
    pending: 'Pending', success: 'Success', unknown: 'Unknown: to reconcile', collect: 'Collection', gas: 'Gas top-up', withdrawal: 'Withdrawal',
  },
  'sw-KE': {
    in: 'Ndani', out: 'Nje', seen: 'Inasubiri uthibitisho', credited: 'Imewekwa', sent: 'Imetumwa', failed: 'Imeshindikana', reorganised: 'Imepangwa upya',
    pending: 'Inasubiri', success: 'Imefanikiwa', unknown: 'Haijulikani: ya kupatanisha', collect: 'Ukusanyaji', gas: 'Nyongeza ya gesi', withdrawal: 'Utoaji',
  },
  'zh-CN': {
    in: '转入', out: '转出', seen: '等待确认', credited: '已入账', sent: '已转出', failed: '失败', reorganised: '已被重组',
    pending: '处理中', success: '成功', unknown: '未知：待对账', collect: '归集', gas: '燃料补充', withdrawal: '提现',
  },
};

const word = (key: string | undefined, locale: string): string | null => (key ? (TEXTS[normalizeLocale(locale)]?.[key] ?? TEXTS['en-US'][key] ?? null) : null);

const TRANSFER_STATE: Record<number, string> = { 1: 'seen', 3: 'failed', 4: 'reorganised' };
const SWEEP_STATE: Record<number, string> = { 1: 'pending', 2: 'success', 3: 'failed', 4: 'unknown' };

/** A transfer's direction: In / Out. */
export const directionText = (v: unknown, _row: unknown, locale: string) => word(typeof v === 'string' ? v : undefined, locale);

/** A transfer's state; confirmed (2) is "Credited" for a deposit and "Sent" for an outgoing transfer. */
export const transferStatusText = (v: unknown, row: Readonly<Record<string, unknown>>, locale: string) =>
  word(Number(v) === 2 ? (row.direction === 'out' ? 'sent' : 'credited') : TRANSFER_STATE[Number(v)], locale);

/** A sweep's state and kind. */
export const sweepStatusText = (v: unknown, _row: unknown, locale: string) => word(SWEEP_STATE[Number(v)], locale);
export const sweepKindText = (v: unknown, _row: unknown, locale: string) => word(typeof v === 'string' ? v : undefined, locale);
