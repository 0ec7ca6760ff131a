import { useMemo, useState, type ReactNode } from 'react';
import { Button, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDialogWidth } from '../app/dialog';
import { FormFields } from './FieldInput';
import { formFields, fromFormValues, toFormValues } from './formValues';
import { applyServerErrors } from './serverErrors';
import type { FieldView, FormMode, Row } from './types';

export interface FormModalProps {
  open: boolean;
  title: ReactNode;
  fields: readonly FieldView[];
  mode: FormMode;
  /** The record being edited (its values fill the form). */
  record?: Row;
  /** Sends the body built from the fields; a rejection keeps the dialog open (400 details go under the inputs). */
  onSubmit(body: Row): Promise<unknown>;
  onClose(): void;
  /** Shown above the fields (a hint, a warning). */
  intro?: ReactNode;
  /** Widest the form gets on a desktop, in px (the dialog is 90% / 96% of the window up to this). */
  maxWidth?: number;
}

/** Create / edit dialog: fields by mode, client rules, the server's field errors mapped back. */
export function FormModal({ open, title, fields, mode, record, onSubmit, onClose, intro, maxWidth = 880 }: FormModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const width = useDialogWidth(maxWidth);
  const initialValues = useMemo(() => toFormValues(fields, mode, record), [fields, mode, record]);
  const names = useMemo(() => formFields(fields, mode).map((f) => f.key), [fields, mode]);

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      await onSubmit(fromFormValues(fields, mode, values, record));
      onClose();
    } catch (err) {
      applyServerErrors(form, err, names);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      width={width}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('action.cancel')}
        </Button>,
        <Button key="submit" type="primary" loading={saving} onClick={() => void submit()} data-testid="form-submit">
          {t('action.save')}
        </Button>,
      ]}
    >
      {intro}
      <Form form={form} layout="vertical" initialValues={initialValues} preserve={false} onFinish={() => void submit()}>
        <FormFields fields={fields} ctx={{ mode, record }} />
        {/* Enter in a text input submits. */}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}
