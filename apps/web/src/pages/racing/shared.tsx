import type { ReactNode } from 'react';
import { Empty, Space, Table, Tag, Typography } from 'antd';
import { TrophyFilled } from '@ant-design/icons';
import type { RacingRaceDetail, RacingRaceRow } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../kit/access';
import { areaView, enumText, NoData, useLocale, type FieldView, type ResourceView, type Row } from '../../resources';
import { useTsh } from '../casino/shared';

/**
 * A racing declaration for the console (packages/contract/src/racing-resources.ts): the menu's title of its
 * page, the racing texts' description (`racing.describe.<page>`), each field's label in the racing texts
 * (`racing.field.<key>`), with the screen's hints (renderers, help lines) merged in.
 */
export function racingView(def: ResourceView, hints: Record<string, Partial<FieldView>> = {}, extra: Partial<ResourceView> = {}): ResourceView {
  return areaView('racing', def, hints, { title: `menu.${def.page}`, description: `racing.describe.${def.page}`, ...extra });
}

/** An empty list in racing's words (what would fill it), e.g. `racing.empty.races`. */
export function RacingEmpty({ text }: { text: 'racing.empty.races' | 'racing.empty.bets' | 'racing.empty.coins' | 'racing.empty.period' }) {
  const { t } = useTranslation();
  return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(text)} data-testid="racing-empty" />;
}

/** The colours of the racing states, whatever their labels. */
const COLORS: Record<string, Record<number, string>> = {
  racing_race_status: { 1: 'blue', 2: 'gold', 3: 'green', 4: 'red' },
  racing_bet_status: { 1: 'blue', 2: 'green', 3: 'default', 4: 'orange' },
  racing_coin_direction: { 1: 'purple', 2: 'cyan' },
};

/** A racing enumeration's value as a coloured tag in the operator's language. */
export function RacingTag({ name, value, testId }: { name: keyof typeof COLORS; value: unknown; testId?: string }) {
  const locale = useLocale();
  if (value === null || value === undefined) return <>-</>;
  return (
    <Tag color={COLORS[name]![Number(value)] ?? 'default'} data-testid={testId}>
      {enumText(name, value, locale)}
    </Tag>
  );
}

/** "#2 Serengeti Wind" from a runner's number and the race's runners (or a known name). */
export function runnerLabel(number: unknown, runners?: readonly { number: number; name: string }[], name?: unknown): string {
  if (number === null || number === undefined || number === '') return '-';
  const known = name ? String(name) : runners?.find((r) => r.number === Number(number))?.name;
  return known ? `#${String(number)} ${known}` : `#${String(number)}`;
}

/** A link to a list screen filtered by one value, when the admin may open that screen; the text alone otherwise. */
export function ListLink({ page, param, value, children, testId }: { page: string; param: string; value: unknown; children: ReactNode; testId?: string }) {
  const { can, hasScreen } = useAccess();
  if (value === null || value === undefined || !can(page) || !hasScreen(page)) return <>{children}</>;
  return (
    <a href={`#/customer/${page}?${param}=${encodeURIComponent(String(value))}`} onClick={(e) => e.stopPropagation()} data-testid={testId}>
      {children}
    </a>
  );
}

/**
 * A bettor's phone linking to the bettor: the user management screen (by id) when the admin holds it, else
 * the read-only user list, else customer service's user screen (by phone).
 */
export function BettorLink({ row }: { row: Row }) {
  const { can, hasScreen } = useAccess();
  const phone = String(row.phone ?? row.bettor_id ?? '-');
  const target = ['user', 'user_list'].find((p) => can(p) && hasScreen(p));
  if (target) return <ListLink page={target} param="id" value={row.bettor_id} testId={`bettor-link-${String(row.id)}`}>{phone}</ListLink>;
  return <ListLink page="cs_user" param="phone" value={row.phone} testId={`bettor-link-${String(row.id)}`}>{phone}</ListLink>;
}

type Runner = RacingRaceDetail['book'][number];

/**
 * A race's runners: the finishing place (once finished), number, name and odds, and, from the race's
 * detail, the bets on each in the admin's branch. `pick` marks a bet's runner.
 */
export function RunnerBoard({ race, pick }: { race: RacingRaceRow | RacingRaceDetail; pick?: number }) {
  const { t } = useTranslation();
  const tsh = useTsh();
  const book = 'book' in race ? race.book : undefined;
  const places = new Map((race.result ?? []).map((n, i) => [n, i + 1]));
  const rows: Array<Partial<Runner> & { number: number; name: string; odds: string; place: number | null }> = (book ?? race.runners.map((r) => ({ ...r, place: places.get(r.number) ?? null })))
    .slice()
    .sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.number - b.number);
  const money = (v: unknown) => (v === undefined ? '-' : tsh(v));
  return (
    <div style={{ marginTop: 16 }} data-testid="runner-board">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {race.result ? t('racing.board.finished') : t('racing.board.runners')}
      </Typography.Title>
      <Table
        size="small"
        rowKey="number"
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: <NoData /> }}
        scroll={{ x: 'max-content' }}
        rowClassName={(r) => (r.number === pick ? 'ant-table-row-selected' : '')}
        columns={[
          {
            key: 'place', title: t('racing.board.place'), width: 80,
            render: (_: unknown, r) => (r.place === 1 ? <Tag color="gold" icon={<TrophyFilled />}>1</Tag> : (r.place ?? '-')),
          },
          {
            key: 'runner', title: t('racing.field.runner'),
            render: (_: unknown, r) => (
              <Space size={6} data-testid={`runner-${r.number}`}>
                <span>{runnerLabel(r.number, undefined, r.name)}</span>
                {r.number === pick ? <Tag color="blue">{t('racing.board.pick')}</Tag> : null}
              </Space>
            ),
          },
          { key: 'odds', dataIndex: 'odds', title: t('racing.field.odds'), align: 'right' },
          ...(book
            ? [
                { key: 'bets', dataIndex: 'bets', title: t('racing.board.bets'), align: 'right' as const },
                { key: 'stake', title: t('racing.field.stake'), align: 'right' as const, render: (_: unknown, r: Partial<Runner>) => money(r.stake) },
                { key: 'payout', title: t('racing.field.payout'), align: 'right' as const, render: (_: unknown, r: Partial<Runner>) => money(r.payout) },
              ]
            : []),
        ]}
      />
      {!race.result ? (
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 8 }}>
          {t('racing.board.notFinished')}
        </Typography.Text>
      ) : null}
    </div>
  );
}
