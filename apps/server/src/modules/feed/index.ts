/**
 * The odds feed as other modules see it (issue 26: a module reaches another only through its index.ts):
 * the engine's and the messages' types and keys, what a match and a selection are called, the matches the
 * jackpot picks from and settles by, and the archive's readers (a settled line's result after its match
 * moved to the archive, every match live or archived). The feed's tables are still read directly by the
 * betting, jackpot and statistics modules' queries (module-walls.known.txt).
 */
export type { CancelRecord, FeedEngine, OutcomeSettlement } from './engine.js';
export { marketKey, PRODUCER, type FeedMessage } from './messages.js';
export { marketName, selectionName } from './names.js';
export { kickOffs, matchesByIds, settled1x2, upcomingMatches } from './match-source.js';
export { archivedSelections, feedEventsAll } from './archive.js';
export { FB } from './simulator.js';
