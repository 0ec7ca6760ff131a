/**
 * Reports (issue 30): what a regulated operator files and a finance team closes the day with. Each report
 * is a folder: `close/` the daily close and the ledger self-check, `tax/` the TRA withholding-tax and
 * Gaming Board returns, `audit/` the significant events and the void and resettlement report. They read
 * the other modules through their `index.ts`; nothing imports this module but the composition root.
 */
export { reportsRoutes } from './routes.js';
