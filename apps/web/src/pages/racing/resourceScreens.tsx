import { useMemo, type ComponentType } from 'react';
import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import { racingBetResource, racingCoinMoveResource, racingRaceResource, racingSettingsResource, type RacingBetDetail, type RacingRaceDetail, type RacingRaceRow } from '@dau/contract/ui';
import { useAccess } from '../../kit/access';
import { ResourcePage } from '../../resources';
import { useCount } from '../casino/shared';
import { BettorLink, ListLink, RacingEmpty, RacingTag, RunnerBoard, racingView, runnerLabel } from './shared';

/** Lists that refresh while races run (the provider's job syncs every 20 s). */
const POLL = () => 15_000;

/** Racing › Races: schedule, state, winner; the detail shows the runners with odds, the finishing order and the branch's bets on each. */
function RaceScreen() {
  const { t } = useTranslation();
  const def = useMemo(
    () =>
      racingView(racingRaceResource, {
        status: { render: (v, row) => <RacingTag name="racing_race_status" value={v} testId={`race-status-${String(row.id)}`} /> },
        winner: { render: (v, row) => runnerLabel(v, row.runners as RacingRaceRow['runners']) },
      }),
    [],
  );
  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      pollInterval={POLL}
      empty={<RacingEmpty text="racing.empty.races" />}
      detailTitle={(row) => t('racing.race.title', { ref: String(row.race_ref ?? row.id) })}
      detailActions={(row) => (
        <ListLink page="racing_order" param="race_id" value={row.id} testId={`race-bets-${String(row.id)}`}>
          {t('racing.link.bets')}
        </ListLink>
      )}
      detailExtra={(row) => (Array.isArray(row.runners) ? <RunnerBoard race={row as unknown as RacingRaceDetail} /> : null)}
    />
  );
}

/** Racing › Bets: each bet links to its race and its bettor; the detail (button `detail`) shows the race's runners and result. */
function BetScreen() {
  const { t } = useTranslation();
  const { can } = useAccess();
  const detail = can('racing_order', 'detail');
  const def = useMemo(
    () =>
      racingView(
        racingBetResource,
        {
          race_ref: {
            render: (v, row) => (
              <ListLink page="racing_race" param="race_ref" value={v} testId={`bet-race-${String(row.id)}`}>
                {String(v ?? '-')}
              </ListLink>
            ),
          },
          phone: { render: (_v, row) => <BettorLink row={row} /> },
          runner: { render: (v, row) => runnerLabel(v, undefined, row.runner_name) },
          status: { render: (v, row) => <RacingTag name="racing_bet_status" value={v} testId={`bet-status-${String(row.id)}`} /> },
        },
        // The bet with its race comes from GET /racing/bets/:id, which needs the detail button.
        { fetchDetail: detail, detailOf: (a) => (a ? { ...(a as RacingBetDetail).bet, race: (a as RacingBetDetail).race } : undefined) },
      ),
    [detail],
  );
  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      pollInterval={POLL}
      empty={<RacingEmpty text="racing.empty.bets" />}
      detailTitle={(row) => t('racing.bet.title', { id: String(row.id) })}
      detailExtra={(row) => (row.race ? <RunnerBoard race={row.race as RacingRaceRow} pick={Number(row.runner)} /> : null)}
    />
  );
}

/** Racing › Coin moves: conversions balance → coins and back, with the bettor and the bill. */
function CoinScreen() {
  const count = useCount();
  const def = useMemo(
    () =>
      racingView(racingCoinMoveResource, {
        phone: { render: (_v, row) => <BettorLink row={row} /> },
        direction: { render: (v, row) => <RacingTag name="racing_coin_direction" value={v} testId={`coin-direction-${String(row.id)}`} /> },
        coins: { render: (v) => count(v) },
      }),
    [count],
  );
  return <ResourcePage def={def} empty={<RacingEmpty text="racing.empty.coins" />} />;
}

/** Racing › Settings: racing on/off and the coin rate (coins per cent x 10,000), shown as coins per shilling too. */
function SettingsScreen() {
  const { t } = useTranslation();
  const count = useCount();
  const def = useMemo(
    () =>
      racingView(racingSettingsResource, {
        enabled: { help: 'racing.help.enabled' },
        coin_rate_bps: {
          help: 'racing.help.coin_rate_bps',
          render: (v) => (
            <Flex gap={8} wrap>
              <span>{count(v)}</span>
              <span>({t('racing.rate', { coins: count(Number(v) / 100) })})</span>
            </Flex>
          ),
        },
      }),
    [t, count],
  );
  return <ResourcePage def={def} />;
}

/** The racing screens built from declarations (packages/contract/src/racing-resources.ts). */
export const screens: Record<string, ComponentType> = {
  racing_race: RaceScreen,
  racing_order: BetScreen,
  racing_coin: CoinScreen,
  racing_config: SettingsScreen,
};
