import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Flex, Modal, Select, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { JackpotCandidateRow, JackpotCandidatesAnswer } from '@dau/contract/ui';
import type { Dayjs } from '../../kit/dayjs';
import { api } from '../../kit/api';
import { useDialogWidth } from '../../kit/dialog';
import { dayEndIso, dayStartIso } from '../../kit/timeZone';
import { formatDateTime, LoadError, NoData, useApiMutation, type Row } from '../../resources';
import { ISSUE_LISTS, MATCHES, MatchName, useIssue } from './shared';

interface Filters {
  category_id?: number;
  league_id?: string;
  days?: [Dayjs | null, Dayjs | null] | null;
}

/**
 * Get matches: the upcoming matches the bet type allows (its max_range_odds applied by the server), with
 * country, league and date filters; the operator ticks exactly 13 and saves them in the order shown.
 */
export function MatchesDialog({ issue, onClose }: { issue: Row | null; onClose(): void }) {
  const { t } = useTranslation();
  const width = useDialogWidth(1100);
  const [filters, setFilters] = useState<Filters>({});
  const [chosen, setChosen] = useState<string[]>([]);
  const current = useIssue(issue?.id);
  const query = {
    category_id: filters.category_id,
    league_id: filters.league_id,
    from: filters.days?.[0] ? dayStartIso(filters.days[0]) : undefined,
    to: filters.days?.[1] ? dayEndIso(filters.days[1]) : undefined,
    limit: 500,
  };
  const candidates = useQuery({
    queryKey: ['jackpot-candidates', issue?.id, query],
    queryFn: () => api.get<JackpotCandidatesAnswer>(`/jackpot/issues/${issue!.id}/candidates`, query),
    enabled: !!issue,
  });
  // Country and league choices: those of every candidate seen (the unfiltered answer includes them all).
  const [seen, setSeen] = useState<Map<string, JackpotCandidateRow>>(new Map());
  useEffect(() => {
    if (!candidates.data) return;
    setSeen((m) => {
      const next = new Map(m);
      for (const c of candidates.data.items) next.set(c.event_id, c);
      return next;
    });
  }, [candidates.data]);
  useEffect(() => {
    if (issue) {
      setFilters({});
      setSeen(new Map());
    }
  }, [issue]);
  // The matches the issue has already: chosen to start with.
  useEffect(() => {
    setChosen(issue && current.data ? current.data.matches.map((m) => m.event_id) : []);
  }, [issue, current.data]);

  const leagues = useMemo(() => {
    const m = new Map<string, string>();
    for (const c of seen.values()) if (c.league_id && (!filters.category_id || c.category_id === filters.category_id)) m.set(c.league_id, c.league_name);
    return [...m].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
  }, [seen, filters.category_id]);
  const countries = useMemo(() => {
    const m = new Map<number, Set<string>>();
    for (const c of seen.values()) if (c.category_id !== null) m.set(c.category_id, (m.get(c.category_id) ?? new Set()).add(c.league_name));
    return [...m].map(([value, names]) => ({ value, label: `#${value} · ${[...names].slice(0, 2).join(', ')}${names.size > 2 ? '…' : ''}` }));
  }, [seen]);

  const save = useApiMutation((eventIds: string[]) => api.put(`/jackpot/issues/${issue!.id}/matches`, { event_ids: eventIds }), {
    invalidate: [...ISSUE_LISTS],
    onSuccess: onClose,
  });

  const items = candidates.data?.items ?? [];
  const count = chosen.length;
  const maxOdds = candidates.data?.max_range_odds ?? 0;
  // Kick-off order: the issue's match order is the order of the chosen matches by start time.
  const ordered = () => [...chosen].sort((a, b) => Date.parse(seen.get(a)?.start_time ?? '') - Date.parse(seen.get(b)?.start_time ?? '') || a.localeCompare(b));

  return (
    <Modal
      open={!!issue}
      title={t('jackpot.matches.title', { identifier: String(issue?.identifier ?? '') })}
      width={width}
      onCancel={onClose}
      destroyOnHidden
      data-testid="matches-dialog"
      footer={
        <Flex justify="space-between" align="center" wrap gap={8}>
          <Typography.Text strong type={count === MATCHES ? 'success' : count > MATCHES ? 'danger' : undefined} data-testid="matches-count">
            {t('jackpot.matches.count', { n: count, total: MATCHES })}
          </Typography.Text>
          <Flex gap={8}>
            <Button onClick={onClose}>{t('action.cancel')}</Button>
            <Button type="primary" disabled={count !== MATCHES} loading={save.isPending} onClick={() => void save.mutateAsync(ordered()).catch(() => undefined)} data-testid="matches-save">
              {t('jackpot.matches.save')}
            </Button>
          </Flex>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary">{maxOdds > 0 ? t('jackpot.matches.hintOdds', { odds: maxOdds.toFixed(2) }) : t('jackpot.matches.hint')}</Typography.Paragraph>
      <Flex gap={8} wrap style={{ marginBottom: 12 }}>
        <Select
          allowClear
          placeholder={t('jackpot.matches.country')}
          options={countries}
          value={filters.category_id}
          onChange={(v: number | undefined) => setFilters((f) => ({ ...f, category_id: v, league_id: undefined }))}
          style={{ minWidth: 200 }}
          data-testid="matches-country"
        />
        <Select
          allowClear
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('jackpot.matches.league')}
          options={leagues}
          value={filters.league_id}
          onChange={(v: string | undefined) => setFilters((f) => ({ ...f, league_id: v }))}
          style={{ minWidth: 220 }}
          data-testid="matches-league"
        />
        <DatePicker.RangePicker allowEmpty={[true, true]} value={filters.days ?? null} onChange={(v) => setFilters((f) => ({ ...f, days: v as Filters['days'] }))} />
        {count > 0 && (
          <Button onClick={() => setChosen([])} data-testid="matches-clear">
            {t('jackpot.matches.clear')}
          </Button>
        )}
      </Flex>
      {count > MATCHES && <Alert type="warning" showIcon style={{ marginBottom: 8 }} message={t('jackpot.matches.tooMany', { total: MATCHES })} />}
      {candidates.isError && !candidates.data ? (
        <LoadError error={candidates.error} onRetry={() => void candidates.refetch()} />
      ) : (
        <Table<JackpotCandidateRow>
          size="small"
          rowKey="event_id"
          loading={candidates.isFetching}
          dataSource={items}
          pagination={{ pageSize: 50, showSizeChanger: false, hideOnSinglePage: true }}
          scroll={{ x: 'max-content', y: 420 }}
          locale={{ emptyText: <NoData /> }}
          data-testid="matches-candidates"
          rowSelection={{
            selectedRowKeys: chosen,
            // Exactly 13 are ticked one by one: no "select all".
            hideSelectAll: true,
            preserveSelectedRowKeys: true,
            onChange: (keys) => setChosen(keys.map(String)),
            getCheckboxProps: (c) => ({ disabled: count >= MATCHES && !chosen.includes(c.event_id), 'aria-label': `${c.home_team} – ${c.away_team}` }) as never,
          }}
          columns={[
            { key: 'match', title: t('jackpot.match.match'), render: (_, c) => <MatchName m={c} /> },
            { key: 'start', title: t('jackpot.match.kickoff'), render: (_, c) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(c.start_time)}</span> },
            {
              key: 'odds',
              title: t('jackpot.matches.odds'),
              render: (_, c) => (
                <Flex gap={4}>
                  {[c.price_home, c.price_draw, c.price_away].map((p, i) => (
                    <Tag key={i} style={{ margin: 0 }}>
                      {['1', 'X', '2'][i]} {p ?? '-'}
                    </Tag>
                  ))}
                </Flex>
              ),
            },
          ]}
        />
      )}
    </Modal>
  );
}
