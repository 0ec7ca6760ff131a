/**
 * Sandbox-only requests (DAU_SANDBOX_ROUTES=1, never in production): a bettor of my branch installs the app
 * on a phone, as the bettor app does — the sandbox FCM hands it a registration token (what the phone's
 * Firebase SDK does), the app registers it (`registerDevice`); `uninstalled: true` then uninstalls the app
 * (FCM will answer UNREGISTERED for that token). The browser test and demos use it.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { LOG_TYPE } from '@dau/domain';
import { pushDeviceRow, text } from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import { authOf } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { scopeOf } from '../../platform/listing.js';
import { scopedBettor } from '../money/index.js';
import { fcmEndpoints } from './fcm.js';
import { pushDevices } from './schema.js';
import { pushConfigOf, registerDevice } from './service.js';

export function pushSandboxRoutes(app: FastifyInstance, ctx: AppContext, toRow: (d: typeof pushDevices.$inferSelect) => z.infer<typeof pushDeviceRow>) {
  const { db } = ctx;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/v1/sandbox/push/devices',
    {
      config: { access: { page: 'precision_push_device' } },
      schema: {
        tags: ['sandbox'],
        summary: 'A bettor of my branch installs the app: the sandbox FCM issues a token and the app registers it (sandbox only)',
        body: z.strictObject({
          bettor_id: z.number().int().min(1).max(2_147_483_647),
          platform: z.enum(['android', 'ios']),
          model: text(100).optional(),
          os_name: text(50).optional(),
          os_version: text(50).optional(),
          app_version: text(32).optional(),
          uninstalled: z.boolean().optional(),
        }),
        response: { 201: pushDeviceRow },
      },
    },
    async (req, reply) => {
      await scopedBettor(db, await scopeOf(db, authOf(req)), req.body.bettor_id);
      const ep = fcmEndpoints();
      const cfg = await pushConfigOf(db);
      if (!ep.sandbox || !cfg.projectId) throw new AppError(409, 'CONFLICT');
      // The sandbox FCM not running (another process leads it, or it is starting): a state conflict, not a crash.
      const issued = await fetch(`${ep.fcmBase}/sandbox/devices`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: cfg.projectId }) })
        .then((res) => (res.ok ? (res.json() as Promise<{ token: string }>) : null))
        .catch(() => null);
      if (!issued) throw new AppError(409, 'CONFLICT');
      const { token } = issued;
      const b = req.body;
      const id = await registerDevice(db, { bettorId: b.bettor_id, token, platform: b.platform, model: b.model, osName: b.os_name ?? (b.platform === 'ios' ? 'iOS' : 'Android'), osVersion: b.os_version, appVersion: b.app_version });
      if (b.uninstalled) {
        const gone = await fetch(`${ep.fcmBase}/sandbox/devices/unregister`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) }).catch(() => null);
        if (!gone?.ok) throw new AppError(409, 'CONFLICT');
      }
      await writeAudit(db, req, { type: LOG_TYPE.ordinary, content: `Sandbox: bettor #${b.bettor_id} registered push device #${id}` });
      const [row] = await db.select().from(pushDevices).where(eq(pushDevices.id, id));
      return reply.status(201).send(toRow(row!));
    },
  );
}
