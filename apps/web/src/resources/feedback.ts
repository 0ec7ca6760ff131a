import { App } from 'antd';
import type { MessageCode } from '@dau/domain';
import { useErrorText, useMsg } from '../app/messages';

/** Toasts after an action: `ok()` shows "Successful operation", `fail(err)` the server's message. */
export function useFeedback() {
  const { message } = App.useApp();
  const msg = useMsg();
  const errText = useErrorText();
  return {
    ok: (code: MessageCode = 'SUCCESS') => void message.success(msg(code)),
    fail: (err: unknown) => void message.error(errText(err)),
  };
}
