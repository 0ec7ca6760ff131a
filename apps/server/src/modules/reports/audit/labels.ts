import { formatAmount, normalizeLocale, type Locale } from '@dau/domain';

/**
 * The words of the audit reports' exports in the asker's language: an event's kind, a change's kind and
 * source, and an event's details. The console says the same in its audit texts
 * (apps/web/src/locales/<lang>/audit.ts).
 */
const WORDS: Record<Locale, Record<string, string>> = {
  'en-US': {
    manual_result: 'Manual result', result_change: 'Result changed', void: 'Void', resettlement: 'Resettlement', rollback: 'Settlement rolled back',
    odds_change: 'Odds margin changed', market_change: 'Match changed by an operator', suspension: 'Suspension', match_cancel: 'Match cancelled',
    setting_change: 'Setting changed', producer_down: 'Feed producer down', privileged_sign_in: 'Privileged sign-in', sign_in_burst: 'Failed sign-in burst',
    balance_correction: 'Balance correction', large_win: 'Large win', large_withdrawal_approved: 'Large withdrawal approved',
    large_withdrawal_refused: 'Large withdrawal refused',
    result_changed: 'Operator result', cancelled: 'Cancelled (void)', resettled: 'Resettled', rolled_back: 'Rolled back',
    feed: 'Feed', operator: 'Operator', system: 'System',
    reason: 'Reason', source: 'Source', market: 'Market', selection: 'Selection', cash: 'Cash', credit: 'Bonus funds', inviter: 'Inviter reward',
    setting: 'Setting', url: 'Address', approved_by: 'Approved by', account: 'Account', ip: 'Address', failures: 'Failures', minutes: 'Minutes',
    serial: 'Serial', first_approver: 'First approver', product: 'Product', round_id: 'Round', bet_total: 'Bets', producer: 'Producer', state: 'State',
  },
  'sw-KE': {
    manual_result: 'Matokeo ya mkono', result_change: 'Matokeo yamebadilishwa', void: 'Batili', resettlement: 'Kuamua upya', rollback: 'Uamuzi umetenguliwa',
    odds_change: 'Ukingo wa odds umebadilishwa', market_change: 'Mechi imebadilishwa na msimamizi', suspension: 'Kusimamishwa', match_cancel: 'Mechi imeghairiwa',
    setting_change: 'Mpangilio umebadilishwa', producer_down: 'Chanzo cha data kimesimama', privileged_sign_in: 'Kuingia kwa mwenye mamlaka',
    sign_in_burst: 'Mfululizo wa kuingia kulikoshindikana', balance_correction: 'Marekebisho ya salio', large_win: 'Ushindi mkubwa',
    large_withdrawal_approved: 'Utoaji mkubwa umeidhinishwa', large_withdrawal_refused: 'Utoaji mkubwa umekataliwa',
    result_changed: 'Matokeo ya msimamizi', cancelled: 'Imeghairiwa (batili)', resettled: 'Imeamuliwa upya', rolled_back: 'Imetenguliwa',
    feed: 'Chanzo', operator: 'Msimamizi', system: 'Mfumo',
    reason: 'Sababu', source: 'Chanzo', market: 'Soko', selection: 'Chaguo', cash: 'Pesa taslimu', credit: 'Fedha za bonasi', inviter: 'Zawadi ya mwalikaji',
    setting: 'Mpangilio', url: 'Anwani', approved_by: 'Ameidhinishwa na', account: 'Akaunti', ip: 'Anwani', failures: 'Makosa', minutes: 'Dakika',
    serial: 'Namba', first_approver: 'Aliyeidhinisha kwanza', product: 'Bidhaa', round_id: 'Mzunguko', bet_total: 'Dau', producer: 'Chanzo', state: 'Hali',
  },
  'zh-CN': {
    manual_result: '手动赛果', result_change: '赛果更改', void: '作废', resettlement: '重新结算', rollback: '结算回滚',
    odds_change: '赔率利润率更改', market_change: '操作员更改赛事', suspension: '暂停', match_cancel: '赛事取消',
    setting_change: '设置更改', producer_down: '数据生产者中断', privileged_sign_in: '特权登录', sign_in_burst: '连续登录失败',
    balance_correction: '余额调整', large_win: '大额赢奖', large_withdrawal_approved: '大额提款已批准', large_withdrawal_refused: '大额提款已拒绝',
    result_changed: '操作员赛果', cancelled: '已取消（作废）', resettled: '已重新结算', rolled_back: '已回滚',
    feed: '数据源', operator: '操作员', system: '系统',
    reason: '原因', source: '来源', market: '盘口', selection: '选项', cash: '现金', credit: '奖金', inviter: '邀请人奖励',
    setting: '设置', url: '地址', approved_by: '批准人', account: '账号', ip: '地址', failures: '失败次数', minutes: '分钟',
    serial: '流水号', first_approver: '首次审批人', product: '产品', round_id: '局号', bet_total: '投注额', producer: '生产者', state: '状态',
  },
};

const word = (key: string, locale: string): string => WORDS[normalizeLocale(locale)]?.[key] ?? WORDS['en-US'][key] ?? key;

/** An event's or a change's kind, or a change's source. */
export const kindText = (v: unknown, _row: unknown, locale: string) => (typeof v === 'string' ? word(v, locale) : null);

const MONEY_KEYS = new Set(['cash', 'credit', 'inviter', 'bet_total']);
/** An event's details (its parameters) as one line: "Reason: …; Market: …". Amounts in TSh. */
export const detailText = (v: unknown, _row: unknown, locale: string): string | null => {
  if (!v || typeof v !== 'object') return null;
  const parts: string[] = [];
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (val === null || val === undefined || val === '') continue;
    const shown = MONEY_KEYS.has(k) ? formatAmount(Number(val)) : typeof val === 'string' && WORDS['en-US'][val] && k === 'source' ? word(val, locale) : String(val);
    parts.push(`${word(k, locale)}: ${shown}`);
  }
  return parts.join('; ') || null;
};
