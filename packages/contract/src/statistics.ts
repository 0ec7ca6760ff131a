import type { z } from 'zod';
import { answerRow } from './answers.js';

/**
 * What GET /statistics/today and /statistics/history answer per hour, per day and in total (cents and
 * counts; apps/server/src/modules/statistics/figures.ts defines each figure). One type for the server
 * that computes them and the console that shows them.
 */
export const figuresAnswer = answerRow({
  turnover: 'number', settled_stake: 'number', payouts: 'number', cashouts: 'number', ggr: 'number', bonuses: 'number', ngr: 'number', tax: 'number',
  orders: 'number', settled: 'number', bettors: 'number', deposits: 'number', deposit_count: 'number', withdrawals: 'number', withdrawal_count: 'number',
  new_bettors: 'number',
});

/** The open book beside the figures: orders still open, their stakes and the liability if they all won. */
export const openBookAnswer = answerRow({ open_orders: 'number', open_stakes: 'number', open_liability: 'number' });
export type OpenBook = z.infer<typeof openBookAnswer>;

export interface Figures {
  turnover: number;
  /** Stakes of the orders settled (or cashed out) in the period: GGR = settled_stake - payouts. */
  settled_stake: number;
  payouts: number;
  cashouts: number;
  ggr: number;
  bonuses: number;
  ngr: number;
  tax: number;
  orders: number;
  settled: number;
  bettors: number;
  deposits: number;
  deposit_count: number;
  withdrawals: number;
  withdrawal_count: number;
  new_bettors: number;
}
