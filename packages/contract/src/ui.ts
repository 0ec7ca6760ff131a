// The part of the contract the console needs at run time, without zod (keeps the shell bundle small).
export * from './menu.js';
export * from './resource.js';
export * from './resources.js';
export * from './money-resources.js';
export * from './sports-resources.js';
export * from './betting-resources.js';
export * from './jackpot-resources.js';
export * from './casino-resources.js';
// statistics.ts builds zod answers: the console takes its types only.
export type { Figures } from './statistics.js';
export type { OpenBook } from './statistics.js';
// jackpot-api.ts builds zod shapes: the console takes its types only.
export type { JackpotIssueRow, JackpotMatchRow, JackpotIssueDetail, JackpotQuoteAnswer, JackpotTicketBody, JackpotTicketRow, JackpotTicketDetail, JackpotShareRow } from './jackpot-api.js';
export type { JackpotPoolAnswer, JackpotCandidateRow, JackpotCandidatesAnswer, JackpotShareDetail, JackpotHeldRow, JackpotPayoutRow, JackpotHeldDetail } from './jackpot-api.js';
// casino-api.ts builds zod shapes: the console takes its types only.
export type { CasinoSessionAnswer, CasinoRoundRow, CasinoTransactionRow, CasinoRoundDetail, CasinoWalletAnswer } from './casino-api.js';
export * from './racing-resources.js';
// racing-api.ts builds zod shapes: the console takes its types only.
export type { RacingRaceRow, RacingRaceDetail, RacingBetRow, RacingBetDetail, RacingCoinMoveRow, RacingStatsAnswer } from './racing-api.js';
export * from './shop-resources.js';
export * from './visitor-resources.js';
export * from './messaging-resources.js';
// messaging-api.ts builds zod shapes: the console takes its types only.
export type { BoardRow, MessageRow, MessageSendBody, MessageSendAnswer, MessageTarget, BettorTargetFilter, PhoneResolution, AppVersionAnswer, InboxItem } from './messaging-api.js';
export type { BoardReplyAnswer, BoardClearAnswer, RecipientCountAnswer } from './messaging-api.js';
export * from './sms-resources.js';
// sms-api.ts builds zod shapes: the console takes its types only.
export type { SmsTarget, SmsSendBody, SmsPreviewAnswer, SmsSendRow, SmsRecipientRow, SmsConfigAnswer, SmsImportAnswer } from './sms-api.js';
export * from './push-resources.js';
// push-api.ts builds zod shapes: the console takes its types only.
export type { PushDeviceRow, PushSegment, PushPublicBody, PushPrecisionBody, PushSendAnswer, PushResultRow, PushSendDetail, TelegramBindingRow, TelegramBindCodeAnswer, TelegramMeAnswer } from './push-api.js';
export type { PushCountAnswer } from './push-api.js';
// operations-api.ts builds zod shapes: the console takes its types only.
export type { ServerRow, ScriptDefRow, ScriptTarget, ScriptRunRow, LockRow, ActivityRow, StatementRow } from './operations-api.js';
export type { ServerListAnswer, ScriptListAnswer, ScriptRunListAnswer, ScriptOutputLine, ScriptOutputAnswer, LockListAnswer, ActivityAnswer } from './operations-api.js';
export * from './content-resources.js';
export * from './duties-resources.js';
// duties-api.ts builds zod shapes: the console takes its types only.
export type { Duty, PendingChangeRow, SettingHistoryRow } from './duties-api.js';
export type { PendingApprovalAnswer, SettingNamesAnswer } from './duties-api.js';
// saved-filters-api.ts builds zod shapes: the console takes its types only.
export type { SavedFilterRow, SavedFiltersAnswer, SavedFilterBody, SavedFilterUpdateBody } from './saved-filters-api.js';
export * from './saved-filters.js';
export * from './tron-declarations.js';
// payments-network-api.ts builds zod shapes: the console takes its types only.
export type { BettorNetworkAnswer, PhoneNetworkRow, PortedRecord, PortedBody } from './payments-network-api.js';
// Bulk actions: the limit and the answer's types (no zod).
export * from './bulk.js';
// Issue 30: the auditors' reports (significant events, void and resettlement report).
export * from './audit-reports.js';
export * from './search.js';
export * from './exposure.js';
// Issue 30: the daily close's declaration; close-api.ts builds zod shapes: the console takes its types only.
export * from './close-resources.js';
export type { CloseFigures, CloseProduct, CloseOperator, CloseLedger, CloseRunRow, CloseDayAnswer, CloseRunAnswer, LedgerCheckAnswer } from './close-api.js';
