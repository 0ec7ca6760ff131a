/**
 * The resource layer (docs/architecture.md "One declaration per simple screen"): from a ResourceDef the generic
 * ResourcePage builds the search form, the table, the detail drawer and the create/edit form. Hand-written
 * screens compose the same blocks.
 */
export * from './types';
export { ResourcePage } from './ResourcePage';
export { ResourceList, type ResourceListProps } from './ResourceList';
export { SettingsCard } from './SettingsCard';
export { useListState, filterKeysOf, unmetRequirement, PAGE_SIZES, DEFAULT_PAGE_SIZE, type ListState, type Filters } from './useListState';
export { SearchForm, SearchButtons } from './SearchForm';
export { QuickFilters, type QuickFilter } from './QuickFilters';
export { SavedFilters, type SavedFiltersProps } from './SavedFilters';
export { useParamPatch } from './useParamPatch';
export { ResourceTable, type ResourceTableProps } from './ResourceTable';
export { PlainTable } from './PlainTable';
export { buildColumns, parseSort, formatSort } from './columns';
export { TableSettings } from './TableSettings';
export { useTablePrefs, type Density, type TablePrefs } from './useTablePrefs';
export { FieldValue, Blank } from './FieldValue';
export { formatDateTime, DATETIME_FORMAT } from './datetime';
export { FieldInput, FormFields, fieldRules } from './FieldInput';
export { TshInput, tshRule, type TshRuleOptions } from './TshInput';
export { ImageUpload, type UploadAnswer } from './ImageUpload';
export { toFormValues, fromFormValues, formFields } from './formValues';
export { FormModal, FormDialog, type FormModalProps, type FormDialogProps } from './FormModal';
export { DetailDrawer, RecordView, type DetailDrawerProps } from './DetailDrawer';
export { ActionButton, RowActionButton, type ActionButtonProps } from './ActionButton';
export { ActionMenu, type MenuAction } from './ActionMenu';
export { ExportButton, type ExportButtonProps } from './ExportButton';
export { PageHeader, resourceTexts } from './PageHeader';
export { areaView } from './areaView';
export { NoData, LoadError, QueryHint } from './StateViews';
export { Panel } from './Panel';
export { BulkBar, bulkTotal, useBulkRun, useBulkWords, type BulkRow } from './Bulk';
export {
  useResourceList,
  useResourceRecord,
  useSingleton,
  useApiMutation,
  pendingChangeOf,
  useResourceMutations,
  type ApiMutationOptions,
  type ListQueryOptions,
} from './data';
export { useFeedback } from './feedback';
export { applyServerErrors } from './serverErrors';
export { useLocale, hasEnum, enumText, enumColor, fieldOptions } from './locale';
export { ChangeLines, ChangeStatus, SettingValue, historyLines } from './ChangeLines';
export { SettingHistoryButton, useSettingNames } from './SettingHistoryButton';
