/**
 * Bill remarks (issue 23): what the system writes on a bill is stored as a kind and its parameters
 * (`bills.remark_kind`, `bills.remark_params`), never as English text, and is read in the reader's
 * language: the console renders it in the operator's language, an export in the exporting admin's. The
 * `remark` column keeps only free text an admin typed (a balance correction's reason, a refusal's reason),
 * shown after the kind's text when both are present. Rows written before the kinds existed have only
 * their text, which is shown as it is.
 *
 * A parameter is an identifier (order number, serial, issue, race), a number or a word of the vocabulary
 * below (`change`, `part`), which is translated too.
 */
import { DEFAULT_LOCALE, normalizeLocale, type Locale } from './locale';

export const BILL_REMARK_KINDS = [
  'order_stake', 'order_change', 'order_change_part',
  'jackpot_stake', 'jackpot_change', 'jackpot_change_part', 'jackpot_held_paid',
  'racing_bet', 'racing_result', 'racing_coins',
  'recharge', 'ussd_deposit', 'withdrawal', 'withdrawal_usdt', 'withdrawal_refused', 'withdrawal_failed', 'withdrawal_timed_out',
  'campaign', 'bonus_expired', 'activity', 'sandbox_funding',
] as const;
export type BillRemarkKind = (typeof BILL_REMARK_KINDS)[number];

export type BillRemarkParams = Readonly<Record<string, string | number>>;

/** A remark as a writer gives it: a kind with its parameters, and optionally an admin's free text. */
export interface BillRemark {
  kind: BillRemarkKind;
  params?: BillRemarkParams;
  /** Free text typed by an admin (a reason): stored in `remark`, shown after the kind's text. */
  text?: string;
}

/** Words a parameter may hold, translated when shown. */
export const BILL_REMARK_WORDS = {
  /** What happened to an order, a jackpot ticket or a racing bet. */
  change: [
    'settled', 'resettled', 'rolled_back', 'cancelled', 'result_changed', 'cashout', 'auto_cashout',
    'won', 'race_cancelled', 'issue_deleted', 'issue_void', 'prize', 'result_change',
  ],
  /** Which part of the money a bill is. */
  part: ['accumulator_bonus', 'inviter_reward', 'bonus_funds'],
} as const;
type Change = (typeof BILL_REMARK_WORDS.change)[number];
type Part = (typeof BILL_REMARK_WORDS.part)[number];

interface RemarkTexts {
  templates: Record<BillRemarkKind, string>;
  change: Record<Change, string>;
  part: Record<Part, string>;
  /** Between the kind's text and an admin's free text. */
  joiner: string;
}

const TEXTS: Record<Locale, RemarkTexts> = {
  'en-US': {
    templates: {
      order_stake: 'Stake of order {order_no}',
      order_change: 'Order {order_no}: {change}',
      order_change_part: 'Order {order_no}: {change}, {part}',
      jackpot_stake: 'Jackpot {issue}, ticket {ticket}',
      jackpot_change: 'Jackpot {issue}, ticket {ticket}: {change} (version {version})',
      jackpot_change_part: 'Jackpot {issue}, ticket {ticket}: {change}, {part} (version {version})',
      jackpot_held_paid: 'Jackpot ticket {ticket}: held prize paid (request #{request})',
      racing_bet: 'Race {race}, runner {runner} {name} @ {odds}',
      racing_result: 'Race {race}, runner {runner}: {change}',
      racing_coins: '{coins} racing coins',
      recharge: 'Recharge {serial}',
      ussd_deposit: 'USSD deposit {serial}',
      withdrawal: 'Withdrawal {serial}',
      withdrawal_usdt: 'Withdrawal {serial} (USDT to {to})',
      withdrawal_refused: 'Withdrawal {serial} refused, amount returned',
      withdrawal_failed: 'Withdrawal {serial} failed, amount returned',
      withdrawal_timed_out: 'Timed-out mobile-money withdrawal {serial} returned',
      campaign: 'Campaign {name} (#{id})',
      bonus_expired: 'Bonus funds expired (grant #{grant})',
      activity: 'Activity {name}',
      sandbox_funding: 'Sandbox funding',
    },
    change: {
      settled: 'settled', resettled: 'resettled', rolled_back: 'settlement rolled back', cancelled: 'cancelled', result_changed: 'result changed',
      cashout: 'cashout', auto_cashout: 'auto cashout', won: 'won', race_cancelled: 'refunded (race cancelled)',
      issue_deleted: 'issue deleted, stake refunded', issue_void: 'issue void, stake refunded', prize: 'prize', result_change: 'result change',
    },
    part: { accumulator_bonus: 'accumulator bonus', inviter_reward: 'inviter reward', bonus_funds: 'bonus funds' },
    joiner: ' — ',
  },
  'sw-KE': {
    templates: {
      order_stake: 'Dau la oda {order_no}',
      order_change: 'Oda {order_no}: {change}',
      order_change_part: 'Oda {order_no}: {change}, {part}',
      jackpot_stake: 'Jackpot {issue}, tiketi {ticket}',
      jackpot_change: 'Jackpot {issue}, tiketi {ticket}: {change} (toleo {version})',
      jackpot_change_part: 'Jackpot {issue}, tiketi {ticket}: {change}, {part} (toleo {version})',
      jackpot_held_paid: 'Tiketi ya jackpot {ticket}: zawadi iliyozuiliwa imelipwa (ombi #{request})',
      racing_bet: 'Mbio {race}, mshindani {runner} {name} @ {odds}',
      racing_result: 'Mbio {race}, mshindani {runner}: {change}',
      racing_coins: 'Sarafu {coins} za mbio',
      recharge: 'Kuweka pesa {serial}',
      ussd_deposit: 'Kuweka kwa USSD {serial}',
      withdrawal: 'Kutoa pesa {serial}',
      withdrawal_usdt: 'Kutoa pesa {serial} (USDT kwenda {to})',
      withdrawal_refused: 'Utoaji {serial} umekataliwa, kiasi kimerejeshwa',
      withdrawal_failed: 'Utoaji {serial} umeshindikana, kiasi kimerejeshwa',
      withdrawal_timed_out: 'Utoaji wa pesa za simu {serial} uliopitwa na muda umerejeshwa',
      campaign: 'Kampeni {name} (#{id})',
      bonus_expired: 'Pesa za bonasi zimeisha muda (ruzuku #{grant})',
      activity: 'Shughuli {name}',
      sandbox_funding: 'Ufadhili wa majaribio',
    },
    change: {
      settled: 'imeamuliwa', resettled: 'imeamuliwa upya', rolled_back: 'uamuzi umetenguliwa', cancelled: 'imeghairiwa',
      result_changed: 'matokeo yamebadilishwa', cashout: 'kutoa mapema', auto_cashout: 'kutoa mapema kiotomatiki', won: 'imeshinda',
      race_cancelled: 'imerejeshwa (mbio zimeghairiwa)', issue_deleted: 'toleo limefutwa, dau limerejeshwa',
      issue_void: 'toleo ni batili, dau limerejeshwa', prize: 'zawadi', result_change: 'mabadiliko ya matokeo',
    },
    part: { accumulator_bonus: 'bonasi ya dau la mchanganyiko', inviter_reward: 'zawadi ya mwalikaji', bonus_funds: 'pesa za bonasi' },
    joiner: ' — ',
  },
  'zh-CN': {
    templates: {
      order_stake: '订单 {order_no} 投注',
      order_change: '订单 {order_no}：{change}',
      order_change_part: '订单 {order_no}：{change}，{part}',
      jackpot_stake: '奖池 {issue}，彩票 {ticket}',
      jackpot_change: '奖池 {issue}，彩票 {ticket}：{change}（第 {version} 版）',
      jackpot_change_part: '奖池 {issue}，彩票 {ticket}：{change}，{part}（第 {version} 版）',
      jackpot_held_paid: '奖池彩票 {ticket}：暂扣奖金已支付（申请 #{request}）',
      racing_bet: '赛事 {race}，{runner} 号 {name} @ {odds}',
      racing_result: '赛事 {race}，{runner} 号：{change}',
      racing_coins: '{coins} 赛马币',
      recharge: '充值 {serial}',
      ussd_deposit: 'USSD 充值 {serial}',
      withdrawal: '提现 {serial}',
      withdrawal_usdt: '提现 {serial}（USDT 至 {to}）',
      withdrawal_refused: '提现 {serial} 被拒绝，金额已退回',
      withdrawal_failed: '提现 {serial} 失败，金额已退回',
      withdrawal_timed_out: '超时的移动支付提现 {serial} 已退回',
      campaign: '活动 {name}（#{id}）',
      bonus_expired: '彩金过期（发放 #{grant}）',
      activity: '活动 {name}',
      sandbox_funding: '沙盒充值',
    },
    change: {
      settled: '已结算', resettled: '重新结算', rolled_back: '结算已回滚', cancelled: '已取消', result_changed: '赛果已更改',
      cashout: '提前兑现', auto_cashout: '自动兑现', won: '获胜', race_cancelled: '已退款（赛事取消）',
      issue_deleted: '期号已删除，投注退回', issue_void: '期号作废，投注退回', prize: '奖金', result_change: '结果变更',
    },
    part: { accumulator_bonus: '串关奖励', inviter_reward: '邀请人奖励', bonus_funds: '彩金' },
    joiner: '：',
  },
};

/** The template of a kind in a language (tests: every language has the same placeholders). */
export const billRemarkTemplate = (kind: BillRemarkKind, locale: Locale): string => TEXTS[locale].templates[kind];

export const isBillRemarkKind = (value: unknown): value is BillRemarkKind =>
  typeof value === 'string' && (BILL_REMARK_KINDS as readonly string[]).includes(value);

const isParams = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The text of a bill's remark in a language: the kind's template with its parameters (words of the
 * vocabulary translated), then the admin's free text if any; a row without a known kind shows its text.
 * Never throws: an unknown kind or a missing parameter falls back to what is stored.
 */
export function billRemarkText(kind: unknown, params: unknown, text: string | null | undefined, locale: Locale | string = DEFAULT_LOCALE): string {
  const free = typeof text === 'string' ? text : '';
  if (!isBillRemarkKind(kind)) return free;
  const t = TEXTS[normalizeLocale(locale)];
  const p = isParams(params) ? params : {};
  const word = (name: string, value: unknown): string => {
    const list = name === 'change' ? t.change : name === 'part' ? t.part : null;
    const v = String(value);
    return list && Object.prototype.hasOwnProperty.call(list, v) ? list[v as keyof typeof list] : v;
  };
  const shown = t.templates[kind].replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(p, name) && p[name] !== null && p[name] !== undefined ? word(name, p[name]) : whole,
  );
  return free ? `${shown}${t.joiner}${free}` : shown;
}
