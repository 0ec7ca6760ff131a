/**
 * The simulator's push activity (issue 15, PUSH), plugged into `startSimulator`: now and then a bettor
 * installs the app on a phone — the sandbox FCM issues a registration token (what Firebase's SDK does on
 * the phone) and the app registers it with `registerDevice`, as the bettor app would; rarely a bettor
 * uninstalls it (the token then answers UNREGISTERED and the next push marks the device). Only while pushes
 * go to the sandbox FCM.
 */
import { sql } from 'drizzle-orm';
import type { AppContext } from '../platform/context.js';
import { bettors } from '../modules/money/schema.js';
import { fcmEndpoints, pushConfigOf, registerDevice } from '../modules/push/index.js';
import { pushDevices } from '../modules/push/schema.js';

interface Rng {
  next(): number;
  pick<T>(xs: readonly T[]): T;
}

const PHONES = [
  ['android', 'Tecno Spark 10', 'Android', '13'],
  ['android', 'Infinix Hot 30', 'Android', '13'],
  ['android', 'Samsung Galaxy A14', 'Android', '14'],
  ['android', 'itel A70', 'Android', '13'],
  ['ios', 'iPhone 12', 'iOS', '17.4'],
  ['ios', 'iPhone SE', 'iOS', '16.7'],
] as const;
const APP_VERSIONS = ['1.3.2', '1.4.0', '1.4.0', '1.4.1'];

async function sandbox(path: string, body: unknown) {
  const res = await fetch(`${fcmEndpoints().fcmBase}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.ok ? ((await res.json()) as Record<string, unknown>) : null;
}

export async function simulatePush(ctx: AppContext, rng: Rng) {
  if (!fcmEndpoints().sandbox || rng.next() > 0.25) return;
  const cfg = await pushConfigOf(ctx.db);
  if (!cfg.projectId) return;
  if (rng.next() < 0.05) {
    const [d] = await ctx.db.select({ token: pushDevices.token }).from(pushDevices).orderBy(sql`random()`).limit(1);
    if (d) await sandbox('/sandbox/devices/unregister', { token: d.token });
    return;
  }
  const [b] = await ctx.db
    .select({ id: bettors.id })
    .from(bettors)
    .where(sql`not exists (select 1 from push_devices d where d.bettor_id = ${bettors.id})`)
    .orderBy(sql`random()`)
    .limit(1);
  if (!b) return;
  const issued = await sandbox('/sandbox/devices', { project_id: cfg.projectId });
  if (!issued || typeof issued.token !== 'string') return;
  const [platform, model, osName, osVersion] = rng.pick(PHONES);
  await registerDevice(ctx.db, { bettorId: b.id, token: issued.token, platform, model, osName, osVersion, appVersion: rng.pick(APP_VERSIONS) });
}
