import { useId, useMemo, useState, type ReactNode } from 'react';
import { Button, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDialogWidth } from '../kit/dialog';
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
export function FormModal({ open, title, onClose, intro, maxWidth = 880, ...form }: FormModalProps) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const width = useDialogWidth(maxWidth);
  const formId = useId();
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
        // The button submits the form by its id: the form lives (and is reset) with the dialog's content.
        <Button key="submit" type="primary" htmlType="submit" form={formId} loading={saving} data-testid="form-submit">
          {t('action.save')}
        </Button>,
      ]}
    >
      {intro}
      <ResourceForm id={formId} {...form} onDone={onClose} onSaving={setSaving} />
    </Modal>
  );
}

interface ResourceFormProps extends Pick<FormModalProps, 'fields' | 'mode' | 'record' | 'onSubmit'> {
  id: string;
  onDone(): void;
  onSaving(saving: boolean): void;
}

/** A fresh form instance per mount, so no value of a previous record lingers. */
function ResourceForm({ id, fields, mode, record, onSubmit, onDone, onSaving }: ResourceFormProps) {
  const [form] = Form.useForm();
  const [initialValues] = useState(() => toFormValues(fields, mode, record));
  const names = useMemo(() => formFields(fields, mode).map((f) => f.key), [fields, mode]);

  const submit = async (values: Row) => {
    onSaving(true);
    try {
      await onSubmit(fromFormValues(fields, mode, values, record));
      onDone();
    } catch (err) {
      applyServerErrors(form, err, names);
    } finally {
      onSaving(false);
    }
  };

  return (
    <Form id={id} name={id} form={form} layout="vertical" initialValues={initialValues} onFinish={(v) => void submit(v)}>
      <FormFields fields={fields} ctx={{ mode, record }} />
    </Form>
  );
}
