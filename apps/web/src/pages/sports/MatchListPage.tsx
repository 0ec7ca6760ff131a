import { useState } from 'react';
import { LineChartOutlined } from '@ant-design/icons';
import { matchListResource } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { usePageCan } from '../../app/access';
import { ActionButton, ResourcePage, type Row } from '../../resources';
import { OddsDrawer } from './OddsDrawer';

/**
 * Betting › Matches (spec §3 match_list): the declaration's list (filters by sport, league, start date,
 * status and visibility) plus a row action that opens the match's live odds.
 */
export default function MatchListPage() {
  const { t } = useTranslation();
  const can = usePageCan();
  const [odds, setOdds] = useState<Row | null>(null);
  return (
    <ResourcePage
      def={matchListResource}
      detailTitle={(r) => `${String(r.home_team ?? '')} - ${String(r.away_team ?? '')}`}
      detailColumns={2}
      rowActions={(r) =>
        can('odds') && (
          <ActionButton
            action="odds"
            page={matchListResource.page}
            type="text"
            size="small"
            compact
            icon={<LineChartOutlined />}
            testId={`match-odds-${String(r.id)}`}
            onClick={() => setOdds(r)}
          >
            {t('sports.odds.button')}
          </ActionButton>
        )
      }
    >
      <OddsDrawer match={odds} onClose={() => setOdds(null)} />
    </ResourcePage>
  );
}
