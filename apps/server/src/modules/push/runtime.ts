/**
 * Running THE SANDBOX FCM next to the server (main.ts): when DAU_FCM_BASE_URL is not set, one process at
 * a time (the leader of 'push-sandbox') serves it on DAU_PUSH_SANDBOX_PORT (6049), and the first time
 * creates the demo project's service account there and stores its key file in push_config, as an
 * operator would paste the one the Firebase console gives.
 */
import { eq } from 'drizzle-orm';
import type { Database, Db } from '../../platform/db.js';
import { leadership, type Leadership } from '../../platform/leader.js';
import { DEFAULT_PUSH_SANDBOX_PORT, startSandboxFcm, type SandboxFcm } from './sandbox.js';
import { fcmEndpoints } from './fcm.js';
import { pushConfigOf } from './service.js';
import { pushConfig } from './schema.js';

export const SANDBOX_PROJECT_ID = 'dau-sandbox';

/** The sandbox's service account in push_config when none is configured (demo, tests). */
export async function configureSandboxAccount(db: Db, sandbox: Pick<SandboxFcm, 'createServiceAccount'>, projectId = SANDBOX_PROJECT_ID) {
  const cfg = await pushConfigOf(db);
  if (cfg.serviceAccountJson) return false;
  const account = await sandbox.createServiceAccount(projectId);
  await db.update(pushConfig).set({ projectId, serviceAccountJson: JSON.stringify(account), updatedAt: new Date() }).where(eq(pushConfig.id, 1));
  return true;
}

export function runSandboxFcm(database: Database, db: Db, opts: { log?: (msg: string, err?: unknown) => void; info?: (msg: string) => void } = {}): Leadership | null {
  if (!fcmEndpoints().sandbox) return null;
  let running: SandboxFcm | null = null;
  return leadership(database, 'push-sandbox', {
    onLead: async () => {
      running = await startSandboxFcm({ db, port: Number(process.env.DAU_PUSH_SANDBOX_PORT) || DEFAULT_PUSH_SANDBOX_PORT, log: opts.log });
      opts.info?.(`this process runs the sandbox FCM on ${running.url}`);
      await configureSandboxAccount(db, running).catch((err) => opts.log?.('sandbox FCM: creating the service account failed', err));
    },
    onLose: async () => {
      await running?.stop();
      running = null;
    },
    log: opts.log,
  });
}

/** push_config's row (seed). */
export async function seedPush(ex: Pick<Db, 'insert'>) {
  await ex.insert(pushConfig).values({ id: 1 }).onConflictDoNothing();
}
