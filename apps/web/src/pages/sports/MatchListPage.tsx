import { useMemo, useState } from 'react';
import { PercentageOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { matchListResource } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ActionButton, FieldValue, ResourcePage, type FieldView, type Option, type ResourceView, type Row } from '../../resources';
import { MarginsDialog } from './MarginsDialog';
import { EventUrn, MatchActions, MatchDialog, PAGE, RecoverMatchButton, type MatchDialogKind, type MatchDialogState } from './MatchActions';
import { OddsDrawer } from './OddsDrawer';

/** GET /sports/matches/leagues: the leagues the feed has sent, as choices of the league filter. */
function useLeagueChoices(): Option[] {
  const { data } = useQuery({
    queryKey: [PAGE, 'leagues'],
    queryFn: () => api.get<{ items: { sport_id: number; league_id: string; league_name: string }[] }>('/sports/matches/leagues'),
    staleTime: 60_000,
  });
  return useMemo(() => (data?.items ?? []).map((l) => ({ value: l.league_id, label: l.league_name || l.league_id })), [data]);
}

/** The detail shows the event's URN monospace and copyable; the table keeps its usual short text. */
function urnField(f: FieldView): FieldView {
  return { ...f, render: (value, row, variant) => (variant === 'detail' ? <EventUrn value={value} /> : <FieldValue field={f} value={value} row={row} />) };
}

/**
 * Betting › Matches (spec §3 match_list): the declaration's list (filters by sport, league, start date,
 * event and match status, visibility), the live odds of a match, the operator controls of each row
 * (show / hide, suspend, maintenance, random betting, live delay, ranking, cancel) and the price margins.
 */
export default function MatchListPage() {
  const { t } = useTranslation();
  const leagues = useLeagueChoices();
  const [odds, setOdds] = useState<Row | null>(null);
  const [dialog, setDialog] = useState<MatchDialogState | null>(null);
  const [margins, setMargins] = useState(false);
  // The league filter picks from the feed's leagues (a provider id is not something to type). It is a
  // filter only: the detail shows the league once, by its name (league_name).
  const def = useMemo<ResourceView>(
    () => ({
      ...matchListResource,
      fields: matchListResource.fields.map((f) =>
        f.key === 'league_id'
          ? { ...f, detail: false, ...(leagues.length ? { type: 'enum' as const, options: leagues, label: 'sports.filters.league' } : {}) }
          : f.key === 'event_id'
            ? urnField(f)
            : f,
      ),
    }),
    [leagues],
  );
  const openDialog = (kind: MatchDialogKind, row: Row) => setDialog({ kind, row, open: true });
  return (
    <ResourcePage
      def={def}
      detailTitle={(r) => `${String(r.home_team ?? '')} - ${String(r.away_team ?? '')}`}
      detailColumns={2}
      toolbar={() => (
        <ActionButton action="odds" page={PAGE} icon={<PercentageOutlined />} testId="match-margins" onClick={() => setMargins(true)}>
          {t('sports.margins.button')}
        </ActionButton>
      )}
      rowActions={(r) => <MatchActions row={r} onOdds={setOdds} onDialog={openDialog} />}
      detailActions={(r) => <RecoverMatchButton row={r} />}
    >
      <OddsDrawer match={odds} onClose={() => setOdds(null)} />
      <MatchDialog state={dialog} onClose={() => setDialog((d) => (d ? { ...d, open: false } : d))} />
      <MarginsDialog open={margins} onClose={() => setMargins(false)} />
    </ResourcePage>
  );
}
