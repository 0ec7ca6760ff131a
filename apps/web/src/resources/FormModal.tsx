import { useId, useMemo, useState, type ReactNode } from 'react';
import { Button, Form, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DialogBox, type DialogBoxProps } from '../kit/DialogBox';
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
  /** A line of help above the fields (under `intro`), in secondary text. */
  hint?: ReactNode;
  /** Widest the form gets on a desktop, in px (the dialog is 90% / 96% of the window up to this). */
  maxWidth?: number;
}

/** Create / edit dialog: fields by mode, client rules, the server's field errors mapped back. */
export function FormModal({ open, title, onClose, intro, hint, maxWidth = 880, ...form }: FormModalProps) {
  const [saving, setSaving] = useState(false);
  const formId = useId();
  return (
    <FormDialog open={open} title={title} maxWidth={maxWidth} onClose={onClose} formId={formId} saving={saving}>
      {intro}
      {hint !== undefined && <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph>}
      <ResourceForm id={formId} {...form} onDone={onClose} onSaving={setSaving} />
    </FormDialog>
  );
}

export interface FormDialogProps extends Omit<DialogBoxProps, 'footer' | 'actions' | 'maxWidth'> {
  maxWidth: number;
  /** The id of the form inside: Save submits it. */
  formId: string;
  /** Save spins while the form is being sent. */
  saving: boolean;
}

/** The frame of a form dialog: Cancel and Save (which submits the form by its id); a click outside does not close it. */
export function FormDialog({ formId, saving, onClose, children, ...rest }: FormDialogProps) {
  const { t } = useTranslation();
  return (
    <DialogBox
      onClose={onClose}
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
      {...rest}
    >
      {children}
    </DialogBox>
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
