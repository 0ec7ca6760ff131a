import type { ReactNode } from 'react';
import { Form, Input, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { MESSAGE_CONTENT_MAX, MESSAGE_TITLE_MAX } from '@dau/contract/ui';
import { DialogBox } from '../../kit/DialogBox';
import { areaView, type FieldView, type Option, type ResourceView } from '../../resources';

/**
 * A messaging declaration for the console: the menu's title, the messaging texts' description
 * (`messaging.describe.<name>`), each field's label in the messaging texts (`messaging.field.<key>`), with
 * the console's hints merged in.
 */
export function messagingView(def: ResourceView, hints: Record<string, Partial<FieldView>> = {}): ResourceView {
  return areaView('messaging', def, hints);
}

/** Choices of a coded text field, each with its label. */
export const codeOptions = (codes: readonly string[], label: (code: string) => string): Option[] => codes.map((c) => ({ value: c, label: label(c) }));

/**
 * A dialog that sends an in-app message: `head` above the form, the title and text (test ids `<testId>-title`,
 * `-content`), the form's other items (`children`), `foot` below; the send button (`<testId>-submit`) checks the
 * form and hands its values to `onSend` (a failure has shown its message and keeps the dialog open).
 */
export function MessageDialog<V extends { title: string; content: string }>(props: {
  open: boolean;
  title: string;
  maxWidth: number;
  okText: string;
  testId: string;
  form: FormInstance<V>;
  initialValues: Partial<V>;
  contentLabel: string;
  busy: boolean;
  onClose(): void;
  onSend(values: V): Promise<unknown>;
  head?: ReactNode;
  foot?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const { form, testId } = props;
  const submit = async () => {
    const v = await form.validateFields();
    await props.onSend(v).catch(() => undefined);
  };
  return (
    <DialogBox
      open={props.open}
      title={props.title}
      maxWidth={props.maxWidth}
      onClose={props.onClose}
      onOk={submit}
      okText={props.okText}
      okButtonProps={{ loading: props.busy, 'data-testid': `${testId}-submit` } as never}
    >
      {props.head}
      <Form form={form} layout="vertical" requiredMark={false} initialValues={props.initialValues}>
        <Form.Item name="title" label={t('messaging.field.title')} rules={[{ required: true, whitespace: true, message: t('messaging.send.titleRequired') }]}>
          <Input maxLength={MESSAGE_TITLE_MAX} data-testid={`${testId}-title`} />
        </Form.Item>
        <Form.Item name="content" label={props.contentLabel} rules={[{ required: true, whitespace: true, message: t('messaging.send.contentRequired') }]}>
          <Input.TextArea rows={4} maxLength={MESSAGE_CONTENT_MAX} showCount data-testid={`${testId}-content`} />
        </Form.Item>
        {props.children}
      </Form>
      {props.foot}
    </DialogBox>
  );
}
