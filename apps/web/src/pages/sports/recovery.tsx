import { SyncOutlined } from '@ant-design/icons';
import { App, Typography } from 'antd';
import type { QueryKey } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { ActionButton, useApiMutation, type ActionButtonProps } from '../../resources';

/** 202 of POST /sports/producers/:producer/recovery and POST /sports/matches/:event_id/recovery. */
export interface RecoveryAnswer {
  request_id: number;
  /** A producer's recovery: from this time (ISO), or null for a full recovery. A match's has none. */
  after?: string | null;
}

/** The button key of a recovery, on the producers' page and on the match list (packages/contract/src/menu.ts). */
export const RECOVER_BUTTON = 'recover';

/**
 * A recovery asked of the feed (POST {path}, no body): the next snapshot of the provider replaces what the
 * console holds. Behind the page's `recover` permission; asks first (what the operator is about to cause),
 * then says which request was made (the server's message when refused: one in progress, or too soon) and
 * refreshes `invalidate`.
 */
export function useRecovery(path: string, opts: { invalidate: QueryKey[]; toast?: (answer: RecoveryAnswer) => string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return useApiMutation(() => api.post<RecoveryAnswer>(path), {
    success: false,
    invalidate: opts.invalidate,
    onSuccess: (a) => void message.success(opts.toast?.(a) ?? t('sports.recovery.requested', { id: a.request_id })),
  });
}

export interface RecoverButtonProps extends Omit<ActionButtonProps, 'action' | 'confirm' | 'onClick' | 'page'> {
  /** The permission page (`{page}:recover`). */
  page: string;
  /** POST here to ask for the recovery. */
  path: string;
  /** The confirmation's question, and what the recovery does meanwhile. */
  question: string;
  warning: string;
  invalidate: QueryKey[];
  toast?: (answer: RecoveryAnswer) => string;
}

export function RecoverButton({ page, path, question, warning, invalidate, toast, ...rest }: RecoverButtonProps) {
  const recovery = useRecovery(path, { invalidate, toast });
  return (
    <ActionButton
      action={RECOVER_BUTTON}
      page={page}
      icon={<SyncOutlined />}
      confirm={
        <div style={{ maxWidth: 320 }} data-testid="recovery-confirm">
          <div>{question}</div>
          <Typography.Text type="secondary">{warning}</Typography.Text>
        </div>
      }
      onClick={() => recovery.mutateAsync(undefined)}
      {...rest}
    />
  );
}
