import { Button, Checkbox, Divider, Dropdown, Popover, Space, Tooltip } from 'antd';
import { ColumnHeightOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Density } from './useTablePrefs';

interface Props {
  columns: Array<{ key: string; title: string }>;
  hidden: string[];
  density: Density;
  onHidden(hidden: string[]): void;
  onDensity(density: Density): void;
  onResetColumns(): void;
  onReload?(): void;
  reloading?: boolean;
}

/** Reload, density and column visibility: the small icons at the right of a table's toolbar. */
export function TableSettings({ columns, hidden, density, onHidden, onDensity, onResetColumns, onReload, reloading }: Props) {
  const { t } = useTranslation();
  const visible = columns.filter((c) => !hidden.includes(c.key)).map((c) => c.key);
  const picker = (
    <div style={{ minWidth: 180 }}>
      <Checkbox.Group
        value={visible}
        onChange={(keys) => onHidden(columns.map((c) => c.key).filter((k) => !keys.includes(k)))}
        style={{ display: 'flex', flexDirection: 'column', gap: 6 }}
        options={columns.map((c) => ({ value: c.key, label: c.title }))}
      />
      <Divider style={{ margin: '8px 0' }} />
      <Button type="link" size="small" onClick={onResetColumns} style={{ padding: 0 }}>
        {t('table.resetColumns')}
      </Button>
    </div>
  );
  return (
    <Space size={4}>
      {onReload && (
        <Tooltip title={t('action.refresh')}>
          <Button type="text" icon={<ReloadOutlined spin={reloading} />} onClick={onReload} aria-label={t('action.refresh')} data-testid="table-reload" />
        </Tooltip>
      )}
      <Dropdown
        trigger={['click']}
        menu={{
          selectable: true,
          selectedKeys: [density],
          onClick: ({ key }) => onDensity(key as Density),
          items: (['large', 'medium', 'small'] as const).map((d) => ({ key: d, label: t(`table.density_${d}`) })),
        }}
      >
        <Tooltip title={t('table.density')}>
          <Button type="text" icon={<ColumnHeightOutlined />} aria-label={t('table.density')} data-testid="table-density" />
        </Tooltip>
      </Dropdown>
      <Popover trigger="click" placement="bottomRight" title={t('table.columns')} content={picker}>
        <Tooltip title={t('table.columns')}>
          <Button type="text" icon={<SettingOutlined />} aria-label={t('table.columns')} data-testid="table-columns" />
        </Tooltip>
      </Popover>
    </Space>
  );
}
