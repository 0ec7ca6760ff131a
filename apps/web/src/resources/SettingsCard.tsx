import { useMemo, useState } from 'react';
import { EditOutlined } from '@ant-design/icons';
import { Button, Descriptions, Flex, Form, Skeleton } from 'antd';
import type { QueryKey } from '@tanstack/react-query';
import { fieldLabelKey } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { ActionButton } from './ActionButton';
import { useResourceMutations, useSingleton } from './data';
import { FieldValue } from './FieldValue';
import { FormFields } from './FieldInput';
import { formFields, fromFormValues, toFormValues } from './formValues';
import { PageHeader, resourceTexts } from './PageHeader';
import { PendingChangesNotice, SettingHistoryButton } from './SettingHistoryButton';
import { applyServerErrors } from './serverErrors';
import { LoadError } from './StateViews';
import type { ResourceView, Row } from './types';

/** A settings record (singleton declaration): shown as a description list, edited in place (permission `edit`). */
export function SettingsCard({ def, invalidate = [] }: { def: ResourceView; invalidate?: QueryKey[] }) {
  const { t } = useTranslation();
  const record = useSingleton(def);
  const [editing, setEditing] = useState(false);
  const texts = resourceTexts(def);
  const data = record.data;

  const canEdit = def.actions.includes('edit');
  return (
    <div data-testid="resource-settings">
      <PageHeader
        title={t(texts.title)}
        description={t(texts.description)}
        extra={
          <Flex gap={8} wrap>
            <SettingHistoryButton setting={def.name} />
            {canEdit && data && !editing ? (
              <ActionButton action="edit" page={def.page} type="primary" icon={<EditOutlined />} testId="resource-edit" onClick={() => setEditing(true)} />
            ) : null}
          </Flex>
        }
      />
      <PendingChangesNotice setting={def.name} />
      {record.isError && !data ? (
        <LoadError error={record.error} onRetry={() => void record.refetch()} />
      ) : !data ? (
        <Skeleton active />
      ) : editing ? (
        <SettingsForm def={def} data={data} invalidate={invalidate} onDone={() => setEditing(false)} />
      ) : (
        <Descriptions
          bordered
          size="small"
          column={{ xs: 1, md: 2 }}
          items={def.fields
            .filter((f) => f.detail !== false)
            .map((f) => ({ key: f.key, label: t(fieldLabelKey(f)), children: <FieldValue field={f} value={data[f.key]} row={data} variant="detail" /> }))}
        />
      )}
    </div>
  );
}

/** The settings' edit form, mounted fresh for each edit. */
function SettingsForm({ def, data, invalidate, onDone }: { def: ResourceView; data: Row; invalidate: QueryKey[]; onDone(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const { update } = useResourceMutations(def, invalidate);
  const [initialValues] = useState(() => toFormValues(def.fields, 'edit', data));
  const names = useMemo(() => formFields(def.fields, 'edit').map((f) => f.key), [def.fields]);

  const save = async (values: Row) => {
    try {
      await update.mutateAsync({ body: fromFormValues(def.fields, 'edit', values, data) });
      onDone();
    } catch (err) {
      applyServerErrors(form, err, names);
    }
  };

  return (
    <Form form={form} name={`settings-${def.name}`} layout="vertical" initialValues={initialValues} onFinish={(v) => void save(v)} style={{ maxWidth: 880 }}>
      <FormFields fields={def.fields} ctx={{ mode: 'edit', record: data }} />
      <Flex gap={8} style={{ marginTop: 8 }}>
        <Button type="primary" htmlType="submit" loading={update.isPending} data-testid="form-submit">
          {t('action.save')}
        </Button>
        <Button onClick={onDone}>{t('action.cancel')}</Button>
      </Flex>
    </Form>
  );
}
