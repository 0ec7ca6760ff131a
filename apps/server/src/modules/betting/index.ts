/**
 * Betting as other modules see it (issue 26): its settings (the jackpot settles with the same rules) and
 * read-only faces of the orders, their lines, the exposure per selection and the statistics tables that
 * betting keeps as orders are placed and settled (the statistics screens read them). Routes and jobs are
 * registered by app.ts.
 */
export { loadSettings, type BettingSettings } from './settings.js';
import { readModel } from '../../platform/read-model.js';
import {
  orderEvents as orderEventsTable, orderLines as orderLinesTable, orders as ordersTable, selectionExposure as selectionExposureTable, statsBettorDay as statsBettorDayTable,
  statsHourly as statsHourlyTable,
} from './schema.js';

export const orders = readModel(ordersTable);
export const orderLines = readModel(orderLinesTable);
/** Every state change of an order with who made it and why (the reports' void and resettlement report reads it). */
export const orderEvents = readModel(orderEventsTable);
export const selectionExposure = readModel(selectionExposureTable);
export const statsBettorDay = readModel(statsBettorDayTable);
export const statsHourly = readModel(statsHourlyTable);
