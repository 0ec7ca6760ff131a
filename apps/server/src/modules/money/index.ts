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
export { archiveCutoff, billRow, ofBettorPhone, toBillRow } from './bills-routes.js';
export { bettorWhere } from './bettors-routes.js';
export { registerBettor, scopedBettor } from './bettors-service.js';
