import { z } from 'zod';
import { answerRow, component } from './answers.js';
import { dateTime, id, queryBigId, queryId, queryInt32, text } from './input.js';
import { CASINO_WALLET_STATUS } from './casino-resources.js';

/**
 * Request and answer shapes of the casino's hand-written routes (issue 13; declarations without zod in
 * ./casino-resources.ts): game sessions, rounds and round details under /api/v1, and the wallet API
 * that providers call (POST /wallet/v1/:provider/...; design: docs/architecture.md, "The casino wallet and
 * virtual racing").
 */

// ------------------------------------------------------------------------------------------- sessions

export const casinoSessionBody = z.strictObject({ bettor_id: id(), game_id: id(), lang: z.enum(['en-US', 'sw-KE', 'zh-CN']).optional() });
export const casinoSessionAnswer = z.object({ token: z.string(), launch_url: z.string(), expires_at: z.string(), currency: z.string() });
export type CasinoSessionAnswer = z.infer<typeof casinoSessionAnswer>;

// --------------------------------------------------------------------------------------------- rounds

const optionalText = (max = 64) => text(max).optional();

export const casinoRoundFilters = z.object({
  round_ref: optionalText(128),
  provider_id: queryId().optional(),
  game_id: queryId().optional(),
  bettor_id: queryId().optional(),
  phone: optionalText(32),
  status: queryInt32(1, 3).optional(),
  created_at_from: dateTime().optional(),
  created_at_to: dateTime().optional(),
});

export const casinoRoundRow = answerRow({
  id: 'number', round_ref: 'string', provider_id: 'number', provider: 'string?', game_id: 'number', game_name: 'string?',
  bettor_id: 'number', phone: 'string?', user_name: 'string?', bet_total: 'number', win_total: 'number', net: 'number',
  status: 'number', create_time: 'string', update_time: 'string', end_time: 'string?',
});
export type CasinoRoundRow = z.infer<typeof casinoRoundRow>;

export const casinoTransactionRow = answerRow({
  id: 'number', transaction_uuid: 'string', kind: 'string', amount: 'number', reference_uuid: 'string?', status: 'string',
  balance_after: 'number', bill_id: 'number?', bill_serial: 'string?', tombstone: 'boolean', create_time: 'string',
});
export type CasinoTransactionRow = z.infer<typeof casinoTransactionRow>;

export const casinoRoundDetail = z.object({ round: casinoRoundRow, transactions: z.array(casinoTransactionRow) });
export type CasinoRoundDetail = z.infer<typeof casinoRoundDetail>;

export const casinoRoundParams = z.object({ id: queryBigId() });

// ----------------------------------------------------------------------------------------- wallet API

const walletText = (max = 128) => z.string().min(1).max(max).refine((s) => !s.includes('\0'));
const cents = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** Bodies of the wallet's calls (unknown fields are ignored: providers add their own). */
export const casinoWalletBodies = {
  'user/balance': z.object({ request_uuid: walletText(), token: walletText(), game_code: walletText().optional() }),
  'transaction/bet': z.object({
    request_uuid: walletText(), token: walletText(), user: walletText(), game_code: walletText(), round: walletText(),
    transaction_uuid: walletText(), currency: walletText(8), amount: cents, is_free: z.boolean().optional(),
  }),
  'transaction/win': z.object({
    request_uuid: walletText(), token: walletText(), user: walletText(), game_code: walletText(), round: walletText(),
    transaction_uuid: walletText(), reference_transaction_uuid: walletText(), currency: walletText(8), amount: cents,
    is_free: z.boolean().optional(),
  }),
  'transaction/rollback': z.object({
    request_uuid: walletText(), token: walletText(), user: walletText(), game_code: walletText().optional(), round: walletText().optional(),
    transaction_uuid: walletText(), reference_transaction_uuid: walletText(),
  }),
  'round/end': z.object({ request_uuid: walletText(), token: walletText(), user: walletText(), game_code: walletText(), round: walletText() }),
} as const;

/** Every wallet answer: the status, the request it answers, the bettor, the currency and the balance after the call. */
export const casinoWalletAnswer = z.object({
  status: z.enum(CASINO_WALLET_STATUS),
  request_uuid: z.string().nullable(),
  user: z.string().nullable(),
  currency: z.string(),
  balance: z.number(),
});
export type CasinoWalletAnswer = z.infer<typeof casinoWalletAnswer>;

// ------------------------------------------------------------------------------------------ large wins

export const casinoLargeWinFilters = z.object({
  game_id: queryId().optional(),
  bettor_id: queryId().optional(),
  reason: z.enum(['multiple', 'amount']).optional(),
  reviewed: z.enum(['yes', 'no']).optional(),
  created_at_from: dateTime().optional(),
  created_at_to: dateTime().optional(),
});

export const casinoLargeWinRow = answerRow({
  round_id: 'number', round_ref: 'string?', game_id: 'number', game_name: 'string?', bettor_id: 'number', phone: 'string?',
  bet_total: 'number', win_total: 'number', reason: 'string', created_at: 'string', reviewed: 'string', reviewed_account: 'string?',
  reviewed_at: 'string?', review_note: 'string?',
});
export type CasinoLargeWinRow = z.infer<typeof casinoLargeWinRow>;
export const casinoLargeWinParams = z.object({ round_id: queryBigId() });
export const casinoLargeWinReview = z.object({ note: z.string().refine((s) => !s.includes('\0')).trim().min(1).max(500) });

// Named in the API document (components.schemas): answers several operations give, referred to by `$ref`.
component(casinoRoundRow, 'CasinoRoundRow');
component(casinoLargeWinRow, 'CasinoLargeWinRow');
