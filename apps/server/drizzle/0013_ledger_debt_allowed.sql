-- A settlement rolled back or resettled after the bettor spent the winnings takes the balance below
-- zero, as a debt (ledger Posting.allowNegative: bill type amount_rolled_back / credit_refund only).
-- These checks made that correction fail, so the provider's rollback was never applied. The rule
-- "no other movement goes below zero" is kept by the ledger's guarded UPDATE and verified by
-- checkInvariants (a negative balance_after only on a correction bill).
ALTER TABLE "bettors" DROP CONSTRAINT IF EXISTS "bettors_cash_balance_non_negative";--> statement-breakpoint
ALTER TABLE "bettors" DROP CONSTRAINT IF EXISTS "bettors_credit_balance_non_negative";
