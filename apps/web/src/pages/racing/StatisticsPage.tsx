import type { RacingStatsAnswer } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import dayjs from '../../kit/dayjs';
import { api } from '../../kit/api';
import { Panel } from '../../resources';
import { FigureCard, FigureGrid, useHold } from '../statistics/shared';
import { DayRangePage, useDayRangeQuery } from '../statistics/dayRange';
import { RacingEmpty } from './shared';

/** Dar es Salaam's offset (UTC+3, no daylight saving): a day of the operator runs from 00:00+03:00. */
const DAR = '+03:00';
const nextDay = (day: string) => dayjs(day).add(1, 'day').format('YYYY-MM-DD');

/**
 * Racing › Statistics (`racing_statistics`): the racing figures of the admin's branch over Dar es Salaam days
 * (URL `date_from`, `date_to`; the last 7 days by default), from GET /racing/statistics: turnover, settled
 * stakes, payouts, GGR with the hold, open stakes, bets, bettors and the coin conversions. The figure cards
 * are the statistics screens' own.
 */
export default function RacingStatisticsPage() {
  const { t } = useTranslation();
  const hold = useHold();
  const range = useDayRangeQuery(
    'racing_statistics',
    (from, to) => api.get<RacingStatsAnswer>('/racing/statistics', { from: `${from}T00:00:00${DAR}`, to: `${nextDay(to)}T00:00:00${DAR}` }),
    { refetchInterval: 30_000 },
  );
  const { q } = range;
  const f = q.data;
  const loading = q.isPending;
  const card = (k: keyof RacingStatsAnswer, extra: { sub?: string; money?: boolean } = {}) => (
    <FigureCard key={k} k={k} value={f?.[k]} loading={loading} label={t(`racing.figure.${k}`)} hint={t(`racing.hint.${k}`)} money={extra.money ?? (k !== 'bets' && k !== 'bettors')} sub={extra.sub} />
  );
  return (
    <DayRangePage
      range={range}
      testId="racing-statistics"
      rangeTestId="racing-statistics-range"
      title={t('menu.racing_statistics')}
      description={t('racing.describe.racing_statistics')}
    >
      <>
        <FigureGrid>
          {[
            card('turnover'),
            card('settled_stake'),
            card('payouts'),
            card('ggr', { sub: f ? t('racing.hint.hold', { value: hold(f) }) : undefined }),
            card('open_stakes'),
            card('bets'),
            card('bettors'),
            card('coins_bought_cash'),
            card('coins_sold_cash'),
          ]}
        </FigureGrid>
        {f && !f.bets && !f.open_stakes && !f.coins_bought_cash && !f.coins_sold_cash ? (
          <Panel>
            <RacingEmpty text="racing.empty.period" />
          </Panel>
        ) : null}
      </>
    </DayRangePage>
  );
}
