/**
 * The Africa's Talking SMS API as we use it (a thin client of the documented HTTP API).
 *
 * Why not the official `africastalking` npm client: its URLs are fixed in its lib/common.js
 * (https://api.africastalking.com/version1, or api.sandbox.africastalking.com after enableSandbox()),
 * with no option for another base URL, so it cannot be pointed at our local sandbox. The calls are
 * small, so this client speaks the same protocol:
 *
 *   POST {base}/messaging   (application/x-www-form-urlencoded; headers apiKey, Accept: application/json)
 *     username, to (comma-separated E.164 numbers), message, from (sender id, optional), bulkSMSMode=1
 *   → 201 { SMSMessageData: { Message, Recipients: [{ statusCode, number, status, cost, messageId }] } }
 *
 * Recipient status codes: 100 Processed, 101 Sent (Success), 102 Queued — accepted (charged);
 * 401 RiskHold, 402 InvalidSenderId, 403 InvalidPhoneNumber, 404 UnsupportedNumberType,
 * 405 InsufficientBalance, 406 UserInBlacklist, 407 CouldNotRoute, 409 DoNotDisturbRejection,
 * 500 InternalServerError, 501 GatewayError, 502 RejectedByGateway — not accepted.
 *
 * A request refused as a whole: 401 (wrong username/apiKey), 400 (bad request), 429 (throttled: the
 * gateway refused it before processing, safe to send again later). Anything else without an answer
 * (timeout, connection reset, 5xx) leaves the outcome unknown: the messages may have been accepted.
 */

export interface SmsRecipientResult {
  number: string;
  statusCode: number;
  status: string;
  messageId: string;
  cost: string;
}

/** The codes of an accepted (and charged) message. */
export const AT_ACCEPTED = new Set([100, 101, 102]);

export type SmsSendOutcome =
  | { kind: 'answered'; recipients: SmsRecipientResult[] }
  /** Refused before processing (throttled, 429): nothing was accepted, send again later. */
  | { kind: 'throttled'; retryAfterSeconds: number }
  /** Refused as a whole (bad credentials or request): nothing was accepted, sending again will not help. */
  | { kind: 'refused'; status: number; message: string }
  /** No answer: the messages may or may not have been accepted. */
  | { kind: 'unknown'; error: string };

export interface SmsProvider {
  send(input: { username: string; apiKey: string; from?: string; to: string[]; message: string }): Promise<SmsSendOutcome>;
}

export class AfricasTalkingSms implements SmsProvider {
  constructor(
    /** e.g. https://api.africastalking.com/version1 or the sandbox's http://127.0.0.1:6039/version1 */
    private readonly baseUrl: string,
    private readonly timeoutMs = 30_000,
  ) {}

  async send(input: { username: string; apiKey: string; from?: string; to: string[]; message: string }): Promise<SmsSendOutcome> {
    const form = new URLSearchParams({ username: input.username, to: input.to.join(','), message: input.message, bulkSMSMode: '1' });
    if (input.from) form.set('from', input.from);
    let res: Response;
    try {
      res = await fetch(`${this.baseUrl.replace(/\/$/, '')}/messaging`, {
        method: 'POST',
        headers: { apiKey: input.apiKey, Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      return { kind: 'unknown', error: err instanceof Error ? err.message : String(err) };
    }
    const body = await res.text().catch(() => '');
    if (res.status === 429) return { kind: 'throttled', retryAfterSeconds: Math.max(1, Number(res.headers.get('retry-after')) || 1) };
    if (res.status === 400 || res.status === 401) return { kind: 'refused', status: res.status, message: body.slice(0, 200) };
    if (res.status !== 201 && res.status !== 200) return { kind: 'unknown', error: `HTTP ${res.status}: ${body.slice(0, 200)}` };
    try {
      const data = JSON.parse(body) as { SMSMessageData?: { Recipients?: SmsRecipientResult[] } };
      const recipients = data.SMSMessageData?.Recipients;
      if (!Array.isArray(recipients)) return { kind: 'unknown', error: 'answer without SMSMessageData.Recipients' };
      return { kind: 'answered', recipients };
    } catch {
      return { kind: 'unknown', error: 'answer is not JSON' };
    }
  }
}

/** A delivery report as Africa's Talking posts it to our callback (form-encoded or JSON). */
export interface DeliveryReport {
  id: string;
  /** Sent | Submitted | Buffered | Rejected | Success | Failed | AbsentSubscriber | Expired */
  status: string;
  phoneNumber: string;
  networkCode?: string;
  failureReason?: string;
  retryCount?: string;
}

/** Final states of a delivery report: Success → delivered; these → failed; the rest are intermediate. */
export const DLR_FAILED = new Set(['Failed', 'Rejected', 'AbsentSubscriber', 'Expired']);
