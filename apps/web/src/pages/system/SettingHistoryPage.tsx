import { useMemo } from 'react';
import { settingHistoryResource } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { ChangeLines, historyLines, ResourcePage, useSettingNames, type FieldView, type ResourceView, type Row } from '../../resources';

/**
 * System › Settings history (issue 22): every change of a setting of the whole product, who asked and who
 * approved it, before → after with secrets masked; filtered by setting, admin and period; exported as CSV.
 */
export default function SettingHistoryPage() {
  const { t } = useTranslation();
  const settings = useSettingNames();
  const view = useMemo<ResourceView>(
    () => ({
      ...settingHistoryResource,
      fields: [
        ...settingHistoryResource.fields
          .filter((f) => f.key !== 'before' && f.key !== 'after')
          .map((f): FieldView =>
            f.key === 'setting'
              ? { ...f, keep: true, options: settings.map((x) => ({ value: x, label: t(`duties.setting.${x}`, { defaultValue: x }) })) }
              : f.key === 'account' || f.key === 'approved_account'
                ? { ...f, keep: true }
                : f,
          ),
        { key: 'change', type: 'text', label: 'duties.field.change', width: 380, keep: true, render: (_v, row: Row) => <ChangeLines rows={historyLines(row.before, row.after)} setting={String(row.setting)} /> },
        ...settingHistoryResource.fields.filter((f) => f.key === 'before' || f.key === 'after').map((f) => ({ ...f, table: false })),
      ],
    }),
    [settings, t],
  );
  return <ResourcePage def={view} />;
}
