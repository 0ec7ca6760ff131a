/**
 * THE SANDBOX FCM (issue 15): stands in for Google's OAuth2 token endpoint and Firebase Cloud Messaging's
 * HTTP v1 API, on its own port (DAU_PUSH_SANDBOX_PORT, default 6049), run on the leader by main.ts when
 * DAU_FCM_BASE_URL is not set. It is not part of the operator's product: its books are its own tables
 * (sandbox_push_accounts, sandbox_push_devices, sandbox_push_messages).
 *
 * The provider's routes, as documented by Google:
 *  - POST /token  (form: grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer, assertion=<JWT>): the
 *    JWT must be RS256-signed by a service account this sandbox knows (its public key), with iss = the
 *    account's client_email, aud = the token URI, iat/exp at most an hour apart and not expired. Answers
 *    {access_token, expires_in, token_type} or 400 {error: 'invalid_grant', error_description}.
 *  - POST /v1/projects/{project}/messages:send  (Bearer access token; body {message: {token,
 *    notification: {title, body}, data?}, validate_only?}): 200 {name: projects/{p}/messages/{id}}, or the
 *    error shape {error: {code, message, status, details: [{@type: …FcmError, errorCode}]}}: 400
 *    INVALID_ARGUMENT (a token it never issued, non-string data, a message over 4,096 bytes), 404
 *    UNREGISTERED (the app was uninstalled), 403 SENDER_ID_MISMATCH (a token of another project), 401
 *    UNAUTHENTICATED, 429 QUOTA_EXCEEDED and 503 UNAVAILABLE (with Retry-After) when faults are armed.
 *
 * Sandbox-only routes (what the Firebase console and the phone's SDK would do):
 *  - POST /sandbox/accounts {project_id}: a new service account; answers its key file (JSON).
 *  - POST /sandbox/devices {project_id}: a registration token for a new app install.
 *  - POST /sandbox/devices/:token/unregister: the app was uninstalled.
 *  - POST /sandbox/faults {quota?, unavailable?, retry_after?}: the next n sends fail that way.
 *  - GET /health.
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db.js';
import { sandboxPushAccounts, sandboxPushDevices, sandboxPushMessages } from './schema.js';

export const DEFAULT_PUSH_SANDBOX_PORT = 6049;
/** The token URI of Google's service account key files (the `aud` google-auth-library signs). */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const FCM_ERROR_TYPE = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';
const MAX_MESSAGE_BYTES = 4096;

export interface SandboxFcm {
  readonly app: FastifyInstance;
  readonly url: string;
  readonly port: number;
  /** A new service account of a project (its key file, as the Firebase console downloads it). */
  createServiceAccount(projectId: string): Promise<ServiceAccount>;
  /** A registration token for a new app install. */
  registerInstall(projectId: string): Promise<string>;
  unregister(token: string): Promise<void>;
  /** The next `quota` sends answer 429, then the next `unavailable` ones 503. */
  arm(faults: { quota?: number; unavailable?: number; retryAfter?: number }): void;
  stop(): Promise<void>;
}

export interface ServiceAccount {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  token_uri: string;
}

const b64url = (buf: Buffer) => buf.toString('base64url');

function fcmError(reply: FastifyReply, code: number, status: string, message: string, errorCode?: string, retryAfter?: number) {
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  return reply.status(code).send({ error: { code, message, status, ...(errorCode ? { details: [{ '@type': FCM_ERROR_TYPE, errorCode }] } : {}) } });
}

/** A registration token shaped like FCM's ("<instance id>:APA91b<…>"). */
export function newRegistrationToken(): string {
  return `${b64url(crypto.randomBytes(16))}:APA91b${b64url(crypto.randomBytes(105))}`;
}

export async function startSandboxFcm(opts: { db: Db; port: number; host?: string; log?: (msg: string, err?: unknown) => void }): Promise<SandboxFcm> {
  const { db } = opts;
  const host = opts.host ?? '127.0.0.1';
  const app = Fastify({ logger: false, bodyLimit: 64 * 1024 });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  /** Access tokens issued (memory: a restarted sandbox answers 401 and the client fetches a new one, as after Google's expiry). */
  const tokens = new Map<string, { projectId: string; expires: number }>();
  const faults = { quota: 0, unavailable: 0, retryAfter: 1 };
  let url = '';

  app.get('/health', async () => ({ ok: true }));

  app.post('/token', async (req, reply) => {
    const body = (req.body ?? {}) as Record<string, string>;
    const invalid = (description: string) => reply.status(400).send({ error: 'invalid_grant', error_description: description });
    if (body.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return reply.status(400).send({ error: 'unsupported_grant_type', error_description: 'Invalid grant_type' });
    const parts = String(body.assertion ?? '').split('.');
    if (parts.length !== 3) return invalid('Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.');
    let header: { alg?: string }, claims: { iss?: string; aud?: string; scope?: string; iat?: number; exp?: number };
    try {
      header = JSON.parse(Buffer.from(parts[0]!, 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
    } catch {
      return invalid('Invalid JWT: malformed');
    }
    if (header.alg !== 'RS256') return invalid('Invalid JWT: alg must be RS256');
    const [account] = await db.select().from(sandboxPushAccounts).where(eq(sandboxPushAccounts.clientEmail, String(claims.iss ?? '')));
    if (!account) return invalid('Invalid grant: account not found');
    const signed = crypto.verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), account.publicKey, Buffer.from(parts[2]!, 'base64url'));
    if (!signed) return invalid('Invalid JWT Signature.');
    if (claims.aud !== GOOGLE_TOKEN_URL && claims.aud !== `${url}/token`) return invalid('Invalid JWT: aud is not the token URI');
    const now = Math.floor(Date.now() / 1000);
    const iat = Number(claims.iat), exp = Number(claims.exp);
    if (!(iat <= now + 300 && exp > now && exp - iat <= 3600)) {
      return invalid('Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.');
    }
    if (!String(claims.scope ?? '').split(' ').includes(FCM_SCOPE)) return reply.status(400).send({ error: 'invalid_scope', error_description: 'Invalid OAuth scope or ID token audience provided.' });
    const accessToken = `ya29.sandbox-${b64url(crypto.randomBytes(24))}`;
    tokens.set(accessToken, { projectId: account.projectId, expires: Date.now() + 3600_000 });
    return { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' };
  });

  // "messages:send": the colon is escaped for Fastify's router.
  app.post('/v1/projects/:project/messages::send', async (req, reply) => {
    const project = (req.params as { project: string }).project;
    const auth = String(req.headers.authorization ?? '');
    const granted = auth.startsWith('Bearer ') ? tokens.get(auth.slice(7)) : undefined;
    if (!granted || granted.expires < Date.now()) {
      return fcmError(reply, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    }
    if (granted.projectId !== project) return fcmError(reply, 403, 'PERMISSION_DENIED', `Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/${project}'`);
    if (faults.quota > 0) {
      faults.quota--;
      return fcmError(reply, 429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric', 'QUOTA_EXCEEDED', faults.retryAfter);
    }
    if (faults.unavailable > 0) {
      faults.unavailable--;
      return fcmError(reply, 503, 'UNAVAILABLE', 'The service is currently unavailable.', 'UNAVAILABLE', faults.retryAfter);
    }
    const body = (req.body ?? {}) as { message?: Record<string, any>; validate_only?: boolean };
    const message = body.message;
    if (!message || typeof message !== 'object') return fcmError(reply, 400, 'INVALID_ARGUMENT', "Invalid value at 'message'", 'INVALID_ARGUMENT');
    const token = message.token;
    if (typeof token !== 'string' || !token) return fcmError(reply, 400, 'INVALID_ARGUMENT', 'Recipient of the message is not set.', 'INVALID_ARGUMENT');
    if (message.data !== undefined) {
      const bad = typeof message.data !== 'object' || Object.values(message.data).some((v) => typeof v !== 'string');
      if (bad) return fcmError(reply, 400, 'INVALID_ARGUMENT', "Invalid value at 'message.data' (TYPE_STRING)");
    }
    if (Buffer.byteLength(JSON.stringify(message)) > MAX_MESSAGE_BYTES) return fcmError(reply, 400, 'INVALID_ARGUMENT', 'Message is too big', 'INVALID_ARGUMENT');
    const [device] = await db.select().from(sandboxPushDevices).where(eq(sandboxPushDevices.token, token));
    if (!device) return fcmError(reply, 400, 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token', 'INVALID_ARGUMENT');
    if (device.projectId !== project) return fcmError(reply, 403, 'PERMISSION_DENIED', 'SenderId mismatch', 'SENDER_ID_MISMATCH');
    if (device.unregistered) return fcmError(reply, 404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED');
    if (body.validate_only) return { name: `projects/${project}/messages/fake_message_id` };
    const [row] = await db
      .insert(sandboxPushMessages)
      .values({ projectId: project, token, title: message.notification?.title ?? null, body: message.notification?.body ?? null, message })
      .returning({ id: sandboxPushMessages.id });
    return { name: `projects/${project}/messages/0:${row!.id}%sandbox` };
  });

  const createServiceAccount = async (projectId: string): Promise<ServiceAccount> => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const id = crypto.randomBytes(4).toString('hex');
    const clientEmail = `firebase-adminsdk-${id}@${projectId}.iam.gserviceaccount.com`;
    await db.insert(sandboxPushAccounts).values({ clientEmail, projectId, publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
    return {
      type: 'service_account', project_id: projectId, private_key_id: crypto.randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), client_email: clientEmail,
      client_id: String(crypto.randomInt(1e9, 2 ** 47)), token_uri: GOOGLE_TOKEN_URL,
    };
  };
  const registerInstall = async (projectId: string) => {
    const token = newRegistrationToken();
    await db.insert(sandboxPushDevices).values({ token, projectId });
    return token;
  };
  const unregister = async (token: string) => {
    await db.update(sandboxPushDevices).set({ unregistered: true }).where(eq(sandboxPushDevices.token, token));
  };
  const arm: SandboxFcm['arm'] = (f) => {
    faults.quota += f.quota ?? 0;
    faults.unavailable += f.unavailable ?? 0;
    if (f.retryAfter !== undefined) faults.retryAfter = f.retryAfter;
  };

  const projectOf = (body: unknown) => {
    const p = (body as { project_id?: unknown } | null)?.project_id;
    return typeof p === 'string' && /^[a-z][a-z0-9-]{3,40}$/.test(p) ? p : null;
  };
  app.post('/sandbox/accounts', async (req, reply) => {
    const p = projectOf(req.body);
    return p ? createServiceAccount(p) : reply.status(400).send({ error: 'project_id: 4-41 lowercase letters, digits, dashes' });
  });
  app.post('/sandbox/devices', async (req, reply) => {
    const p = projectOf(req.body);
    return p ? { token: await registerInstall(p) } : reply.status(400).send({ error: 'project_id: 4-41 lowercase letters, digits, dashes' });
  });
  app.post('/sandbox/devices/:token/unregister', async (req) => {
    await unregister((req.params as { token: string }).token);
    return { ok: true };
  });
  app.post('/sandbox/faults', async (req) => {
    const b = (req.body ?? {}) as { quota?: number; unavailable?: number; retry_after?: number };
    const n = (v: unknown) => (Number.isInteger(v) && Number(v) >= 0 && Number(v) <= 10_000 ? Number(v) : 0);
    arm({ quota: n(b.quota), unavailable: n(b.unavailable), retryAfter: b.retry_after === undefined ? undefined : n(b.retry_after) });
    return { ok: true, ...faults };
  });

  await app.listen({ port: opts.port, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  url = `http://${host}:${port}`;
  return { app, url, port, createServiceAccount, registerInstall, unregister, arm, stop: () => app.close() };
}
