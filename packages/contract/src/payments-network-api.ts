import { z } from 'zod';
import { text } from './input.js';

/**
 * The number decides the network (issue 28): the network of a bettor's phone as the bettor's detail
 * shows it (GET /api/v1/money/bettors/:id, key `network`), and the admin's record of a number ported to
 * another network (POST / DELETE /api/v1/money/bettors/:id/ported, page `user`, button `ported`).
 */

/** The prefix table's row of the number (domain msisdn.ts), or null when the prefix is in no row. */
export const phoneNetworkRow = z.object({
  prefix: z.string(),
  name: z.string(),
  /** Our pay type paying to that network, or null: a network we do not pay to. */
  pay_type: z.number().nullable(),
  source: z.string(),
  note: z.string(),
  uncertain: z.boolean(),
});

/** Where an admin recorded the number went. */
export const portedRecord = z.object({
  pay_type: z.number(),
  remark: z.string(),
  marked_by: z.number(),
  marked_by_account: z.string().nullable(),
  marked_at: z.string(),
});

export const bettorNetworkAnswer = z.object({
  phone: z.string(),
  network: phoneNetworkRow.nullable(),
  ported: portedRecord.nullable(),
  /** The pay type a withdrawal to this number may use (the ported record wins over the prefix), or null. */
  pay_type: z.number().nullable(),
});

/** Mark the bettor's number as ported to a mobile-money pay type (3, 4, 6, 7), with a remark. */
export const portedBody = z.strictObject({ pay_type: z.number().int(), remark: text(200).min(1) });

export type PhoneNetworkRow = z.infer<typeof phoneNetworkRow>;
export type PortedRecord = z.infer<typeof portedRecord>;
export type BettorNetworkAnswer = z.infer<typeof bettorNetworkAnswer>;
export type PortedBody = z.infer<typeof portedBody>;
