import { defineResource } from './resource.js';

/**
 * Virtual racing's screens (issue 23; menu group `racing`) as the console reads them. The server builds
 * these lists by hand (apps/server/src/modules/racing/routes.ts: joins, the branch scope, keyset exports):
 * the fields mirror their row keys and filters (a `range` field filters by `<key>_from` / `<key>_to`),
 * `keep` marks what identifies a row (kept on a narrow screen) and `exportType` names the list for POST
 * /exports. Money in cents of TSh. The console labels the fields `racing.field.<key>` and takes the titles
 * from the menu (apps/web/src/pages/racing/shared.tsx).
 */

/** Racing › Races (racing_race): the provider's races, their runners and finishing order in the detail. */
export const racingRaceResource = /* @__PURE__ */ defineResource({
  name: 'racing_race',
  page: 'racing_race',
  api: '/racing/races',
  kind: 'list',
  defaultSort: '-starts_at',
  actions: ['export'],
  exportType: 'racing_race',
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 80 },
    { key: 'race_ref', type: 'text', search: 'exact', width: 170, keep: true },
    { key: 'starts_at', type: 'datetime', search: 'range', sortable: true, width: 170, keep: true },
    { key: 'status', type: 'enum', enum: 'racing_race_status', search: 'exact', sortable: true, width: 130, keep: true },
    /** The number of the runner that finished first (its name in the console). */
    { key: 'winner', type: 'number' },
    { key: 'updated_at', type: 'datetime', table: false },
  ],
});

/** Racing › Bets (racing_order): bets of my branch; the detail (button `detail`) shows the bet's race. */
export const racingBetResource = /* @__PURE__ */ defineResource({
  name: 'racing_order',
  page: 'racing_order',
  api: '/racing/bets',
  kind: 'list',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'racing_bet',
  fields: [
    { key: 'id', type: 'number', search: 'exact', sortable: true, width: 90 },
    { key: 'race_id', type: 'number', search: 'exact', table: false, detail: false },
    { key: 'race_ref', type: 'text', width: 170, keep: true },
    { key: 'starts_at', type: 'datetime', table: false },
    { key: 'bettor_id', type: 'number', search: 'exact', table: false },
    { key: 'phone', type: 'text', search: 'exact', width: 140, keep: true },
    { key: 'user_name', type: 'text', table: false },
    /** The runner's number (its name beside it in the console). */
    { key: 'runner', type: 'number', keep: true },
    { key: 'runner_name', type: 'text', table: false },
    { key: 'stake', type: 'money', sortable: true, keep: true },
    { key: 'odds', type: 'odds', keep: true },
    { key: 'status', type: 'enum', enum: 'racing_bet_status', search: 'exact', width: 110, keep: true },
    { key: 'payout', type: 'money', sortable: true },
    { key: 'created_at', type: 'datetime', search: 'range', sortable: true, width: 170 },
    { key: 'settled_at', type: 'datetime', table: false },
  ],
});

/** Racing › Coin moves (racing_coin): conversions of my branch's bettors, balance → coins (bill 15) and back (16). */
export const racingCoinMoveResource = /* @__PURE__ */ defineResource({
  name: 'racing_coin',
  page: 'racing_coin',
  api: '/racing/coin_moves',
  kind: 'list',
  defaultSort: '-id',
  actions: ['export'],
  exportType: 'racing_coin_move',
  fetchDetail: false,
  fields: [
    { key: 'id', type: 'number', sortable: true, width: 90 },
    { key: 'bettor_id', type: 'number', search: 'exact', table: false },
    { key: 'phone', type: 'text', search: 'exact', width: 140, keep: true },
    { key: 'user_name', type: 'text' },
    { key: 'direction', type: 'enum', enum: 'racing_coin_direction', search: 'exact', width: 150, keep: true },
    { key: 'cash', type: 'money', sortable: true, keep: true },
    { key: 'coins', type: 'number', sortable: true },
    /** The bill of the conversion (15 or 16). */
    { key: 'bill_id', type: 'number', table: false },
    { key: 'created_at', type: 'datetime', search: 'range', sortable: true, width: 170 },
  ],
});

/** Racing › Settings (racing_config): racing on/off and the coin rate (a change of the rate waits for a second admin). */
export const racingSettingsResource = /* @__PURE__ */ defineResource({
  name: 'racing_settings',
  page: 'racing_config',
  api: '/racing/settings',
  kind: 'singleton',
  actions: ['edit'],
  duty: { two: ['coin_rate_bps'] },
  fields: [
    { key: 'enabled', type: 'switch', editable: true },
    /** Coins per TSh cent x 10,000 (10,000: one coin per cent; 100: one coin per shilling). */
    { key: 'coin_rate_bps', type: 'number', editable: true, required: true, min: 1, max: 100_000_000 },
    { key: 'updated_at', type: 'datetime' },
  ],
});

/** The racing declarations, for the tests that check their texts. */
export const RACING_RESOURCES = [racingRaceResource, racingBetResource, racingCoinMoveResource, racingSettingsResource] as const;
