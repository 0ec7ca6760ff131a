/**
 * The money module as other modules see it (issue 26: a module reaches another only through its
 * index.ts): the ledger's posting API (single and batch postings, house transfers and entries, serials and
 * transaction ids, the invariants), the bettors' own helpers (registration, a bettor in the caller's
 * scope, the bettor filter the messaging screens share) and the bill row and filters the order, casino,
 * jackpot and racing screens show bills with. Its routes are registered by the composition root (app.ts).
 */
export {
  HOUSE, cashMovementCtes, checkInvariants, houseTransfer, insertHouseEntries, newSerial, newTxnId, post, postBatch,
  type BatchBill, type Cause, type HouseEntryRow, type PostedBill, type Posting, type Remark,
} from './ledger.js';
// Issue 30 (reports): the invariants with their offending rows, and every bill the ledger holds (archives included).
export { ledgerBills, ledgerViolations, type LedgerViolations } from './ledger.js';
export { archiveCutoff, archiveWindow, billRow, billsOfCause, ofBettor, ofBettorPhone } from './bills-routes.js';
export { bettorWhere, phoneCondition as bettorPhoneCondition } from './bettors-routes.js';
export {
  countBet, countRecharge, countReward, countWithdrawal, listenToBettors, markSignedIn, newSandboxBettor, registerBettor, scopedBettor, type BettorListener,
} from './bettors-service.js';

// Read-only faces of money's tables for other modules' lists and joins (platform/read-model.ts): a bettor's
// directory fields and counters, a bill. Writes go through the services above.
import { readModel } from '../../platform/read-model.js';
import { bettors as bettorsTable, bills as billsTable } from './schema.js';
export const bettors = readModel(bettorsTable);
/** A bettor's row as money keeps it. */
export type Bettor = typeof bettorsTable.$inferSelect;
export const bills = readModel(billsTable);
// The house side of the journal, read by the reports (issue 30: the withholding tax to remit, GGR).
import { houseEntries as houseEntriesTable } from './schema.js';
export const houseEntries = readModel(houseEntriesTable);
