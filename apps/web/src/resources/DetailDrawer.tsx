import type { ReactNode } from 'react';
import { Descriptions, Drawer, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldLabelKey } from '@dau/contract/ui';
import { useIsMobile } from '../app/dialog';
import { FieldValue } from './FieldValue';
import type { FieldView, Row } from './types';

export interface DetailDrawerProps {
  open: boolean;
  title: ReactNode;
  fields: readonly FieldView[];
  record?: Row;
  loading?: boolean;
  onClose(): void;
  /** Buttons in the drawer's header (edit, delete...). */
  extra?: ReactNode;
  children?: ReactNode;
}

/** Every field of a record (those with `detail !== false`), labelled and rendered by type. */
export function DetailDrawer({ open, title, fields, record, loading, onClose, extra, children }: DetailDrawerProps) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  return (
    <Drawer open={open} title={title} onClose={onClose} size={mobile ? '100%' : 'large'} extra={extra} destroyOnHidden data-testid="resource-detail">
      {!record ? (
        <Skeleton active loading={loading} />
      ) : (
        <Descriptions
          bordered
          size="small"
          column={1}
          styles={{ label: { width: 180, verticalAlign: 'top' } }}
          items={fields
            .filter((f) => f.detail !== false)
            .map((f) => ({
              key: f.key,
              label: t(fieldLabelKey(f)),
              children: <FieldValue field={f} value={record[f.key]} row={record} variant="detail" />,
            }))}
        />
      )}
      {children}
    </Drawer>
  );
}
