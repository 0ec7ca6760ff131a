/**
 * The odds feed as other modules see it (issue 26: a module reaches another only through its index.ts):
 * the engine's and the messages' types and keys, what a match and a selection are called, the matches the
 * jackpot picks from and settles by, and the archive's readers (a settled line's result after its match
 * moved to the archive, every match live or archived). Other modules read the live matches, markets and
 * selections through read-only faces of its tables (the odds a bet is placed and settled at).
 */
export type { CancelRecord, FeedEngine, OutcomeSettlement } from './engine.js';
export { marketKey, PRODUCER, type FeedMessage } from './messages.js';
export { marketName, selectionName } from './names.js';
export { kickOffs, matchesByIds, settled1x2, upcomingMatches } from './match-source.js';
export { archivedSelections, feedEventsAll } from './archive.js';
export { FB } from './simulator.js';

import { readModel } from '../../platform/read-model.js';
import { feedEvents as eventsTable, feedMarkets as marketsTable, feedOutcomes as outcomesTable } from './schema.js';
export const feedEvents = readModel(eventsTable);
export const feedMarkets = readModel(marketsTable);
export const feedOutcomes = readModel(outcomesTable);
import { feedProducerOutages as outagesTable, feedProducers as producersTable } from './schema.js';
/** The producers' state as the UOF client last saw it (the reports' significant events name a producer). */
export const feedProducers = readModel(producersTable);
/** Each outage of a producer, from down to up again (the reports' significant events). */
export const feedProducerOutages = readModel(outagesTable);
