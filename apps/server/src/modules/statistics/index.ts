/**
 * Statistics as other modules see it (issue 26): the figures of an hour or a day and their rebuild (the
 * operations script that recomputes past days). Routes are registered by app.ts.
 */
export * from './figures.js';
export * from './rebuild.js';
