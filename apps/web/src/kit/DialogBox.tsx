import type { ReactNode } from 'react';
import { Button, Flex, Modal, type ModalProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDialogWidth } from './dialog';

export interface DialogBoxProps extends Omit<ModalProps, 'width' | 'onCancel' | 'destroyOnHidden'> {
  /** Widest the dialog gets on a desktop, in px (90% / 96% of the window up to this); without it antd's own width. */
  maxWidth?: number;
  onClose(): void;
  testId?: string;
  /** The footer as Cancel then these buttons, at the end (instead of `footer`). */
  actions?: ReactNode;
}

/** A dialog of the console: the responsive width (spec §9), closed by Cancel / Esc / ×, its content dropped when hidden. */
export function DialogBox({ maxWidth, onClose, testId, actions, footer, ...rest }: DialogBoxProps) {
  const { t } = useTranslation();
  const width = useDialogWidth(maxWidth);
  return (
    <Modal
      width={maxWidth ? width : undefined}
      onCancel={onClose}
      destroyOnHidden
      data-testid={testId}
      footer={
        actions === undefined ? (
          footer
        ) : (
          <Flex gap={8} justify="flex-end">
            <Button onClick={onClose}>{t('action.cancel')}</Button>
            {actions}
          </Flex>
        )
      }
      {...rest}
    />
  );
}
