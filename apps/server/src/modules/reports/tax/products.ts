import { PRODUCT_KEYS, PRODUCT_OF, type ProductKey } from '../products.js';

export { PRODUCT_KEYS, type BillGroup, type ProductKey } from '../products.js';

/**
 * The products of the Gaming Board's return, by their ids in `tax_return_products`. What each counts (stakes,
 * payouts, withholding tax) is ../products.ts, the same definition as the daily close's on the month's bills
 * instead of the day's, so that a month's GGR is the sum of its days' closes.
 */
export const PRODUCT = { sports: 1, jackpot: 2, casino: 3, racing: 4 } as const satisfies Record<ProductKey, number>;
export const productKeyOf = (id: number): ProductKey => PRODUCT_KEYS.find((k) => PRODUCT[k] === id) ?? 'sports';

/** The bill types of the withholding tax moved for each product (settlement and cashout; jackpot settlement). */
export const WHT_BILL_TYPES = { sports: PRODUCT_OF.sports.taxTypes!, jackpot: PRODUCT_OF.jackpot.taxTypes! };

/** A product's name in an export, in the asker's language (the console's texts say the same: tax.product.*). */
const PRODUCT_NAMES: Record<ProductKey, Record<'en-US' | 'sw-KE' | 'zh-CN', string>> = {
  sports: { 'en-US': 'Sports betting', 'sw-KE': 'Ubashiri wa michezo', 'zh-CN': '体育投注' },
  jackpot: { 'en-US': 'Jackpot', 'sw-KE': 'Jackpot', 'zh-CN': '奖池' },
  casino: { 'en-US': 'Casino', 'sw-KE': 'Kasino', 'zh-CN': '娱乐场' },
  racing: { 'en-US': 'Virtual racing', 'sw-KE': 'Mbio za farasi za mtandaoni', 'zh-CN': '虚拟赛马' },
};
export const productName = (id: number, locale: string) => PRODUCT_NAMES[productKeyOf(id)][locale as 'en-US'] ?? PRODUCT_NAMES[productKeyOf(id)]['en-US'];
