import { z } from 'zod';
import path from 'node:path';
import { message } from '@dau/domain';
import { checkPassword } from './password-policy.js';
import { ROOT } from './paths.js';

const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(6009),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DAU_DATA_DIR: z.string().default('./data'),
  DAU_ADMIN_PASSWORD: z
    .string()
    .optional()
    .superRefine((v, ctx) => {
      const check = v === undefined ? null : checkPassword(v);
      if (check && !check.ok) ctx.addIssue({ code: 'custom', message: message(check.code, 'en-US') });
    }),
  DAU_WEB_DIST: z.string().optional(),
  DAU_DEMO: z.enum(['0', '1']).default('1'),
  DAU_SIMULATOR: z.enum(['0', '1']).default('1'),
  DAU_SANDBOX_ROUTES: z.enum(['0', '1']).default('0'),
  DAU_TRUST_PROXY: z.enum(['0', '1']).default('0'),
  DAU_PUBLIC_DOCS: z.enum(['0', '1']).default('0'),
  /** Migrate and seed, then exit: a release step (and the browser tests' prepared data folders). */
  DAU_SETUP_ONLY: z.enum(['0', '1']).default('0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().default('production'),
  /** The TRON full node the product talks to through TronWeb; default the sandbox TRON node below. */
  TRON_FULL_NODE_URL: z.string().url().optional(),
  /** Port of the sandbox TRON node (modules/tron/sandbox-node.ts), run by the leader when no TRON_FULL_NODE_URL is given. */
  TRON_SANDBOX_PORT: z.coerce.number().int().min(1).max(65535).default(6029),
  /** TronGrid API key sent as TRON-PRO-API-KEY to a real node (write-only, never logged). */
  TRON_API_KEY: z.string().optional(),
  /** The master key of the wallets' envelope encryption: 32 bytes, base64 (modules/tron/keys.ts). */
  DAU_MASTER_KEY: z.string().optional(),
  /**
   * Sportradar's Unified Odds Feed (modules/feed/uof). A Betradar account: the broker (amqps://stgmq.betradar.com:5671
   * or amqps://mq.betradar.com:5671), the REST API (https://stgapi.betradar.com), the access token (write-only,
   * never logged: the broker's user and the API's x-access-token) and the bookmaker id (the broker's virtual host).
   * Without a token the simulated provider feeds the sandbox UOF: in-process, or over UOF_AMQP_URL when it is set.
   */
  UOF_AMQP_URL: z.string().url().optional(),
  UOF_API_URL: z.string().url().optional(),
  UOF_ACCESS_TOKEN: z.string().min(1).optional(),
  UOF_BOOKMAKER_ID: z.string().regex(/^\d+$/, 'the bookmaker id is a number').optional(),
  /** Node id of this installation's recovery requests (UOF node_id), optional. */
  UOF_NODE_ID: z.coerce.number().int().min(1).optional(),
  /** Port of the sandbox UOF API when the sandbox publishes over UOF_AMQP_URL. */
  UOF_SANDBOX_API_PORT: z.coerce.number().int().min(1).max(65535).default(6179),
  /** Issue 28: where the built-in mobile-money sandboxes (M-Pesa, Airtel, the aggregator) answer over HTTP. */
  DAU_PAYMENTS_SANDBOX_PORT: z.coerce.number().int().min(1).max(65535).default(6069),
  /** Our address as the providers reach it (the callback URLs we register); default http://<host>:<port>. */
  DAU_PUBLIC_URL: z.string().url().optional(),
});

export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  adminPassword?: string;
  webDist: string;
  demo: boolean;
  simulator: boolean;
  sandboxRoutes: boolean;
  trustProxy: boolean;
  /** The OpenAPI document readable without signing in. */
  publicDocs: boolean;
  /** Migrate and seed, then exit. */
  setupOnly: boolean;
  logLevel: string;
  /** NODE_ENV as given (default production). */
  nodeEnv: string;
  tron: { fullNodeUrl?: string; sandboxPort: number; apiKey?: string; masterKey?: string };
  uof: { amqpUrl?: string; apiUrl?: string; accessToken?: string; bookmakerId?: string; nodeId?: number; sandboxApiPort: number };
  payments: { sandboxPort: number; publicUrl?: string };
}

/** Reads the environment once; a bad value stops the start with a message that names the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.DAU_DATA_DIR),
    adminPassword: e.DAU_ADMIN_PASSWORD,
    webDist: e.DAU_WEB_DIST ? path.resolve(e.DAU_WEB_DIST) : path.join(ROOT, 'apps/web/dist'),
    demo: e.DAU_DEMO === '1',
    simulator: e.DAU_SIMULATOR === '1',
    sandboxRoutes: e.DAU_SANDBOX_ROUTES === '1',
    trustProxy: e.DAU_TRUST_PROXY === '1',
    publicDocs: e.DAU_PUBLIC_DOCS === '1',
    setupOnly: e.DAU_SETUP_ONLY === '1',
    logLevel: e.LOG_LEVEL,
    nodeEnv: e.NODE_ENV,
    tron: { fullNodeUrl: e.TRON_FULL_NODE_URL, sandboxPort: e.TRON_SANDBOX_PORT, apiKey: e.TRON_API_KEY, masterKey: e.DAU_MASTER_KEY },
    uof: { amqpUrl: e.UOF_AMQP_URL, apiUrl: e.UOF_API_URL, accessToken: e.UOF_ACCESS_TOKEN, bookmakerId: e.UOF_BOOKMAKER_ID, nodeId: e.UOF_NODE_ID, sandboxApiPort: e.UOF_SANDBOX_API_PORT },
    payments: { sandboxPort: e.DAU_PAYMENTS_SANDBOX_PORT, publicUrl: e.DAU_PUBLIC_URL?.replace(/\/+$/, '') },
  };
}
