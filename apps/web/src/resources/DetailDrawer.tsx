import type { ReactNode } from 'react';
import { Descriptions, Drawer, Skeleton, type DescriptionsProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldLabelKey } from '@dau/contract/ui';
import { useIsMobile } from '../kit/dialog';
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
  /** Label-value columns on wide screens (default 1; always 1 on phones). */
  columns?: 1 | 2;
}

/** Every field of a record (those with `detail !== false`), labelled and rendered by type. */
export function RecordView({ fields, record, column = 1, ...rest }: { fields: readonly FieldView[]; record: Row } & Omit<DescriptionsProps, 'items'>) {
  const { t } = useTranslation();
  return (
    <Descriptions
      bordered
      size="small"
      column={column}
      styles={column === 1 ? { label: { width: 180, verticalAlign: 'top' } } : { label: { verticalAlign: 'top' } }}
      {...rest}
      items={fields
        .filter((f) => f.detail !== false)
        .map((f) => ({
          key: f.key,
          label: t(fieldLabelKey(f)),
          children: <FieldValue field={f} value={record[f.key]} row={record} variant="detail" />,
        }))}
    />
  );
}

/** A record in a side drawer: every field (RecordView), header buttons, and what the screen adds below. */
export function DetailDrawer({ open, title, fields, record, loading, onClose, extra, children, columns = 1 }: DetailDrawerProps) {
  const mobile = useIsMobile();
  return (
    <Drawer open={open} title={title} onClose={onClose} size={mobile ? '100%' : 'large'} extra={extra} destroyOnHidden data-testid="resource-detail">
      {!record ? <Skeleton active loading={loading} /> : <RecordView fields={fields} record={record} column={mobile ? 1 : columns} />}
      {children}
    </Drawer>
  );
}
