/**
 * SMS (issue 15): Africa's Talking adapter (./africastalking.ts), its sandbox gateway (./sandbox.ts),
 * sends as durable jobs with delivery reports (./service.ts), the no-send list and the sms_send page
 * (./routes.ts). Other modules and main.ts reach it through what is exported here.
 */
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../platform/context.js';
import type { Database, Db, Executor } from '../../platform/db.js';
import { leadership, type Leadership } from '../../platform/leader.js';
import { smsRoutes as registerSmsRoutes } from './routes.js';
import { smsConfig } from './schema.js';
import { DEFAULT_SMS_SANDBOX_PORT, SANDBOX_SMS_API_KEY, SANDBOX_SMS_USERNAME, startSmsSandbox, type SmsSandbox } from './sandbox.js';

export function smsRoutes(app: FastifyInstance, ctx: AppContext) {
  registerSmsRoutes(app, ctx);
}

export { configureSms, smsRuntime, createSend, previewSend, deliverSend, prepareSend, applyDeliveryReport, applyIncomingMessage, SMS_DELIVER_JOB, SMS_PREPARE_JOB } from './service.js';
export { AfricasTalkingSms, type SmsProvider, type SmsSendOutcome } from './africastalking.js';
export { startSmsSandbox, SANDBOX_SMS_API_KEY, SANDBOX_SMS_USERNAME, DEFAULT_SMS_SANDBOX_PORT, type SmsSandbox } from './sandbox.js';

/** The SMS settings row, pointed at the sandbox account (the operator enters the real account in the console). */
export async function seedSms(ex: Executor) {
  await ex.insert(smsConfig).values({ id: 1, username: SANDBOX_SMS_USERNAME, apiKey: SANDBOX_SMS_API_KEY }).onConflictDoNothing();
}

/** The callback URLs as registered "in the dashboard" of the sandbox gateway: this server's own, with our token. */
async function callbackUrl(db: Db, ownUrl: string, kind: 'delivery' | 'incoming') {
  const [c] = await db.select({ token: smsConfig.callbackToken }).from(smsConfig).where(eq(smsConfig.id, 1));
  return c ? `${ownUrl}/api/public/sms/at/${kind}?token=${c.token}` : null;
}

/**
 * Without DAU_SMS_API_URL the product talks to THE SANDBOX SMS GATEWAY: the leader of 'sms-sandbox'
 * serves it on DAU_SMS_SANDBOX_PORT (6039), reporting deliveries to this server's callback.
 */
export function runSmsSandbox(database: Database, opts: { ownUrl: string; env?: NodeJS.ProcessEnv; log?: (msg: string, err?: unknown) => void; info?: (msg: string) => void }): Leadership | null {
  const env = opts.env ?? process.env;
  if (env.DAU_SMS_API_URL) return null;
  const port = Number(env.DAU_SMS_SANDBOX_PORT) || DEFAULT_SMS_SANDBOX_PORT;
  let running: SmsSandbox | null = null;
  return leadership(database, 'sms-sandbox', {
    onLead: async () => {
      running = await startSmsSandbox({
        db: database.db, port, log: opts.log,
        deliveryUrl: () => callbackUrl(database.db, opts.ownUrl, 'delivery'),
        incomingUrl: () => callbackUrl(database.db, opts.ownUrl, 'incoming'),
      });
      opts.info?.(`this process runs the sandbox SMS gateway on ${running.url}`);
    },
    onLose: async () => {
      await running?.stop();
      running = null;
    },
    log: opts.log,
  });
}
