import { App } from 'antd';
import type { MessageCode } from '@dau/domain';
import { useErrorText, useMsg } from '../kit/messages';

/** Toasts after an action: `ok()` shows "Successful operation", `fail(err)` the server's message. */
export function useFeedback() {
  const { message } = App.useApp();
  const msg = useMsg();
  const errText = useErrorText();
  return {
    ok: (code: MessageCode = 'SUCCESS') => void message.success(msg(code)),
    /** A change that now waits for a second administrator (DESIGN "Duties"): said as such, never as done. */
    pending: (approvers: number) => void message.warning(msg(approvers > 0 ? 'PENDING_APPROVAL' : 'PENDING_NO_APPROVER'), 8),
    fail: (err: unknown) => void message.error(errText(err)),
  };
}
