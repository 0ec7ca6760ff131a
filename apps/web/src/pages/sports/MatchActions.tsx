import { useMemo } from 'react';
import {
  EyeInvisibleOutlined,
  EyeOutlined,
  FieldTimeOutlined,
  FireOutlined,
  LineChartOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  StopOutlined,
  ThunderboltOutlined,
  ToolOutlined,
} from '@ant-design/icons';
import { Alert, App, Typography } from 'antd';
import type { QueryKey } from '@tanstack/react-query';
import { MATCH_STATUS, formatTsh } from '@dau/domain';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ActionButton, ActionMenu, FormModal, useApiMutation, type FieldView, type Row } from '../../resources';
import { useLocale } from '../../resources/locale';
import { RecoverButton } from './recovery';

export const PAGE = 'match_list';
/** Everything under the list's name: the list, and the odds of an open match. */
export const MATCH_LISTS: QueryKey[] = [[PAGE]];

/** The API path of a match's controls (`:id` is the provider's event id, e.g. `sr:match:123`). */
export const matchPath = (eventId: unknown) => `/sports/matches/${encodeURIComponent(String(eventId))}`;

/** A control of a match (POST {match}/{control}): toast, then the list and the open odds refresh. */
export function useMatchControl() {
  return useApiMutation(({ eventId, control, body }: { eventId: unknown; control: string; body: Row }) => api.post<Row>(`${matchPath(eventId)}/${control}`, body), {
    invalidate: MATCH_LISTS,
  });
}

export type MatchDialogKind = 'live_delay' | 'popularity' | 'cancel';
export interface MatchDialogState {
  kind: MatchDialogKind;
  row: Row;
  open: boolean;
}

const FINISHED: number[] = [
  MATCH_STATUS.ended,
  MATCH_STATUS.cancelled,
  MATCH_STATUS.cancelled_before_start,
  MATCH_STATUS.cancelled_after_start,
  MATCH_STATUS.abandoned_after_start,
];

const teams = (row: Row) => `${String(row.home_team ?? '')} - ${String(row.away_team ?? '')}`;

/** The event's URN (`sr:match:29613041`), the provider's own name of the match: monospace, copyable. */
export function EventUrn({ value }: { value: unknown }) {
  if (value === null || value === undefined || value === '') return <Typography.Text type="secondary">-</Typography.Text>;
  return (
    <Typography.Text code copyable data-testid="match-urn" style={{ whiteSpace: 'nowrap' }}>
      {String(value)}
    </Typography.Text>
  );
}

/** "Recover this match": the provider sends the match's odds and state again (POST {match}/recovery). */
export function RecoverMatchButton({ row }: { row: Row }) {
  const { t } = useTranslation();
  return (
    <RecoverButton
      page={PAGE}
      path={`${matchPath(row.event_id)}/recovery`}
      question={t('sports.recovery.confirmMatch', { name: teams(row), urn: String(row.event_id ?? '') })}
      warning={t('sports.recovery.matchWarning')}
      invalidate={MATCH_LISTS}
      testId={`match-recover-${String(row.id)}`}
    >
      {t('sports.recovery.matchButton')}
    </RecoverButton>
  );
}

/**
 * The operator controls of one match, each behind its button permission: the odds at hand, the rest in a
 * "More" menu. On/off switches ask first; delay, ranking and cancel open a dialog.
 */
export function MatchActions({ row, onOdds, onDialog }: { row: Row; onOdds(row: Row): void; onDialog(kind: MatchDialogKind, row: Row): void }) {
  const { t } = useTranslation();
  const control = useMatchControl();
  const id = String(row.id);
  const name = teams(row);
  const visible = row.is_visible !== false;
  const suspended = row.is_suspended === true;
  const maintained = row.is_maintain === true;
  const randomBet = row.random_bet === true;
  const finished = FINISHED.includes(Number(row.match_status)) || !!row.cancel_reason;
  const send = (c: string, body: Row) => control.mutateAsync({ eventId: row.event_id, control: c, body });
  return (
    <>
      <ActionButton action="odds" page={PAGE} type="text" size="small" compact icon={<LineChartOutlined />} testId={`match-odds-${id}`} onClick={() => onOdds(row)}>
        {t('sports.odds.button')}
      </ActionButton>
      <ActionMenu
        testId={`match-more-${id}`}
        items={[
          {
            action: 'hide',
            page: PAGE,
            icon: visible ? <EyeInvisibleOutlined /> : <EyeOutlined />,
            label: t(visible ? 'sports.controls.hide' : 'sports.controls.show'),
            confirm: t(visible ? 'sports.controls.confirmHide' : 'sports.controls.confirmShow', { name }),
            testId: `match-${visible ? 'hide' : 'show'}-${id}`,
            onClick: () => send('visibility', { is_visible: !visible }),
          },
          {
            action: 'suspend',
            page: PAGE,
            icon: suspended ? <PlayCircleOutlined /> : <PauseCircleOutlined />,
            danger: !suspended,
            label: t(suspended ? 'sports.controls.unsuspend' : 'sports.controls.suspend'),
            confirm: t(suspended ? 'sports.controls.confirmUnsuspend' : 'sports.controls.confirmSuspend', { name }),
            testId: `match-${suspended ? 'unsuspend' : 'suspend'}-${id}`,
            onClick: () => send('suspension', { is_suspended: !suspended }),
          },
          {
            action: 'maintain',
            page: PAGE,
            icon: <ToolOutlined />,
            label: t(maintained ? 'sports.controls.maintainOff' : 'sports.controls.maintainOn'),
            confirm: t(maintained ? 'sports.controls.confirmMaintainOff' : 'sports.controls.confirmMaintainOn', { name }),
            testId: `match-maintain-${maintained ? 'off' : 'on'}-${id}`,
            onClick: () => send('maintenance', { is_maintain: !maintained }),
          },
          {
            action: 'random_bet',
            page: PAGE,
            icon: <ThunderboltOutlined />,
            label: t(randomBet ? 'sports.controls.randomBetOff' : 'sports.controls.randomBetOn'),
            confirm: t(randomBet ? 'sports.controls.confirmRandomBetOff' : 'sports.controls.confirmRandomBetOn', { name }),
            testId: `match-random-bet-${randomBet ? 'off' : 'on'}-${id}`,
            onClick: () => send('random-bet', { random_bet: !randomBet }),
          },
          { action: 'live_delay', page: PAGE, icon: <FieldTimeOutlined />, label: t('sports.controls.liveDelay'), testId: `match-live-delay-${id}`, onClick: () => onDialog('live_delay', row) },
          { action: 'popularity', page: PAGE, icon: <FireOutlined />, label: t('sports.controls.ranking'), testId: `match-ranking-${id}`, onClick: () => onDialog('popularity', row) },
          {
            action: 'cancel',
            page: PAGE,
            hidden: finished,
            icon: <StopOutlined />,
            danger: true,
            label: t('sports.controls.cancel'),
            testId: `match-cancel-${id}`,
            onClick: () => onDialog('cancel', row),
          },
        ]}
      />
    </>
  );
}

/** The dialogs of the match controls that take a value: live delay, ranking, cancel with a reason. */
export function MatchDialog({ state, onClose }: { state: MatchDialogState | null; onClose(): void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const control = useMatchControl();
  const locale = useLocale();
  const fields = useMemo<Record<MatchDialogKind, FieldView[]>>(
    () => ({
      live_delay: [{ key: 'live_delay_seconds', type: 'number', editable: true, required: true, min: 0, max: 600, label: 'sports.controls.delaySeconds' }],
      popularity: [
        { key: 'popularity', type: 'number', editable: true, required: true, min: 0, max: 1_000_000 },
        { key: 'sequence', type: 'number', editable: true, required: true, min: 0, max: 1_000_000 },
      ],
      cancel: [{ key: 'cancel_reason', type: 'textarea', editable: true, required: true, maxLength: 500, label: 'sports.controls.reason' }],
    }),
    [],
  );
  if (!state) return null;
  const { kind, row } = state;
  const name = teams(row);
  const send = (c: string, body: Row) => control.mutateAsync({ eventId: row.event_id, control: c, body });

  const submit = async (body: Row) => {
    if (kind === 'live_delay') return send('live-delay', { seconds: body.live_delay_seconds });
    if (kind === 'popularity') return send('ranking', { popularity: body.popularity, sequence: body.sequence });
    // Cancelling cannot be undone here: a second, explicit confirmation that says what it voids and refunds.
    const reason = String(body.cancel_reason ?? '').trim();
    const effect = await api.post<{ orders: number; cash: number; credit: number }>(`/sports/matches/${encodeURIComponent(String(row.event_id))}/cancel/preview`, { reason });
    const sure = await new Promise<boolean>((resolve) =>
      modal.confirm({
        title: t('sports.controls.confirmCancel', { name }),
        content: (
          <div data-testid="cancel-preview">
            <p>{t('sports.controls.cancelWarning')}</p>
            <p>
              {effect.orders
                ? t('sports.controls.cancelEffect', { count: effect.orders, cash: formatTsh(effect.cash, locale), credit: formatTsh(effect.credit, locale) })
                : t('sports.controls.cancelNoOrders')}
            </p>
          </div>
        ),
        okText: t('sports.controls.cancel'),
        okButtonProps: { danger: true, 'data-testid': 'confirm-ok' } as never,
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      }),
    );
    if (!sure) throw new Error('not confirmed'); // keeps the dialog open
    return send('cancel', { reason });
  };

  const titles: Record<MatchDialogKind, string> = {
    live_delay: t('sports.controls.liveDelayTitle', { name }),
    popularity: t('sports.controls.rankingTitle', { name }),
    cancel: t('sports.controls.cancelTitle', { name }),
  };
  const intros: Record<MatchDialogKind, string> = {
    live_delay: t('sports.controls.liveDelayHint'),
    popularity: t('sports.controls.rankingHint'),
    cancel: t('sports.controls.cancelWarning'),
  };
  return (
    <FormModal
      key={`${kind}-${String(row.id)}`}
      open={state.open}
      title={titles[kind]}
      fields={fields[kind]}
      mode="edit"
      record={row}
      maxWidth={520}
      intro={<Alert type={kind === 'cancel' ? 'warning' : 'info'} showIcon title={intros[kind]} style={{ marginBottom: 16 }} />}
      onSubmit={submit}
      onClose={onClose}
    />
  );
}
