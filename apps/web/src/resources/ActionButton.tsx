import { useState, type ReactNode } from 'react';
import { Button, Popconfirm, Tooltip, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAccess, useCurrentPage } from '../kit/access';

export interface ActionButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /** The button permission (`page:action`); also the default label `button.<action>`. */
  action: string;
  /** The permission page; default: the current /customer/{page}. */
  page?: string;
  /** Asks first (a pop-confirm with this text). */
  confirm?: ReactNode;
  /** May return a promise: the button spins until it settles. */
  onClick?: () => unknown;
  testId?: string;
  /** Only the icon, the label in a tooltip (row actions, where room is short). */
  compact?: boolean;
  children?: ReactNode;
}

/** A button that is not there without its permission, with an optional confirmation and a busy state. */
export function ActionButton({ action, page, confirm, onClick, testId, compact, children, ...rest }: ActionButtonProps) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const current = useCurrentPage();
  const [busy, setBusy] = useState(false);
  if (!can(page ?? current, action)) return null;

  const run = async () => {
    setBusy(true);
    try {
      await onClick?.();
    } catch {
      /* the mutation has already shown the server's message */
    } finally {
      setBusy(false);
    }
  };
  const label = children ?? t(`button.${action}`);
  const iconOnly = compact && !!rest.icon;
  const button = (
    <Button loading={busy} data-testid={testId} aria-label={typeof label === 'string' ? label : undefined} onClick={confirm ? undefined : () => void run()} {...rest}>
      {iconOnly ? null : label}
    </Button>
  );
  const shown = iconOnly ? <Tooltip title={label}>{button}</Tooltip> : button;
  if (!confirm) return shown;
  return (
    <Popconfirm title={confirm} onConfirm={run} okButtonProps={{ danger: rest.danger, 'data-testid': 'confirm-ok' } as ButtonProps}>
      {shown}
    </Popconfirm>
  );
}

/** An action in a table row: a small text button, only the icon (the label in a tooltip). */
export function RowActionButton(props: ActionButtonProps) {
  return <ActionButton type="text" size="small" compact {...props} />;
}
