/**
 * Push (issue 15): registered devices (push_device, precision_push_device), public and precision pushes
 * through FCM HTTP v1 as durable jobs (./service.ts, ./fcm.ts), the FCM settings (push_config, the key
 * file write-only) and the sandbox FCM (./sandbox.ts).
 *
 * Scope: a device belongs to its bettor's agent (agent_id): an admin lists and pushes to the devices of
 * their branch only; a public push reaches the valid devices of the sender's branch (the branch is stored
 * with the push, so a job later reaches exactly what the sender could see); a precision push naming a
 * device outside the branch is refused 403 OUT_OF_SCOPE. A push is visible to its sender's branch (the
 * sender in the reader's subtree).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, asc, eq, ilike, inArray, isNotNull, isNull, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { LOG_TYPE } from '@dau/domain';
import {
  idParams, pushConfigResource, pushCountAnswer, pushDeviceFilters, pushDeviceRow, pushPrecisionBody, pushPublicBody, pushSegmentQuery, pushSendAnswer, pushSendDetail,
} from '@dau/contract';
import type { AppContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db.js';
import { authOf, type AuthContext } from '../../platform/access.js';
import { writeAudit } from '../../platform/audit.js';
import { AppError, badRequest, notFound } from '../../platform/errors.js';
import { defineList, registerList, scopeCondition, scopeOf, type Scope, likeEscape } from '../../platform/listing.js';
import { agentInScope, subtreeCondition } from '../../platform/ownership.js';
import { registerResource } from '../../platform/resource.js';
import { admins } from '../../platform/schema.js';
import { parseServiceAccount } from './fcm.js';
import { pushDevices, pushResults, pushSends, pushConfig } from './schema.js';
import { pushSandboxRoutes } from './sandbox-routes.js';
import { countTargets, createPush, definePushJobs, type PushSegmentSpec } from './service.js';

export { registerDevice, pushConfigOf, deliverChunk, PUSH_CHUNK, PUSH_DELIVER_JOB, type DeviceRegistration } from './service.js';
export { setFcmEndpoints, fcmEndpoints, fcmEndpointsFromEnv, sendFcm, parseServiceAccount } from './fcm.js';
export { runSandboxFcm, configureSandboxAccount, seedPush, SANDBOX_PROJECT_ID } from './runtime.js';
export { startSandboxFcm, DEFAULT_PUSH_SANDBOX_PORT, GOOGLE_TOKEN_URL, type SandboxFcm, type ServiceAccount } from './sandbox.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

type Device = typeof pushDevices.$inferSelect;
/** A device as the console sees it: never its FCM registration token (a credential to push to the phone). */
const toDeviceRow = (d: Device) => ({
  id: d.id, bettor_id: d.bettorId, phone: d.phone, platform: d.platform, model: d.model, os_name: d.osName,
  os_version: d.osVersion, app_version: d.appVersion, last_title: d.lastTitle, last_body: d.lastBody, last_pushed_at: iso(d.lastPushedAt),
  invalid: d.invalidAt !== null, invalid_reason: d.invalidReason, registered_at: d.registeredAt.toISOString(),
});

type DeviceFilters = z.infer<typeof pushDeviceFilters>;
function deviceWhere(q: DeviceFilters, scope: Scope): SQL | undefined {
  return and(
    scopeCondition(scope, pushDevices.agentId),
    q.id ? eq(pushDevices.id, q.id) : undefined,
    q.bettor_id ? eq(pushDevices.bettorId, q.bettor_id) : undefined,
    q.phone ? ilike(pushDevices.phone, `%${likeEscape(q.phone.replace(/[\s+]/g, ''))}%`) : undefined,
    q.platform ? eq(pushDevices.platform, q.platform) : undefined,
    q.app_version ? eq(pushDevices.appVersion, q.app_version) : undefined,
    q.model ? ilike(pushDevices.model, `%${likeEscape(q.model)}%`) : undefined,
    q.last_title ? ilike(pushDevices.lastTitle, `%${likeEscape(q.last_title)}%`) : undefined,
    q.invalid === 'true' ? isNotNull(pushDevices.invalidAt) : q.invalid === 'false' ? isNull(pushDevices.invalidAt) : undefined,
  );
}

const deviceList = (name: string, page: string, path: string) =>
  defineList({
    name,
    page,
    path,
    filters: pushDeviceFilters,
    where: deviceWhere,
    select: (ex: Executor) => ex.select().from(pushDevices),
    idColumn: pushDevices.id,
    sortable: { id: pushDevices.id, last_pushed_at: pushDevices.lastPushedAt, registered_at: pushDevices.registeredAt },
    defaultSort: '-id',
    toRow: toDeviceRow,
    row: pushDeviceRow,
    summary: 'List the registered push devices of my branch, filtered, sorted and paged',
    columns: [
      { key: 'id' }, { key: 'last_title' }, { key: 'last_body' }, { key: 'model' }, { key: 'os_name' }, { key: 'os_version' }, { key: 'platform' },
      { key: 'app_version' }, { key: 'phone' }, { key: 'bettor_id' }, { key: 'invalid' }, { key: 'last_pushed_at' }, { key: 'registered_at' },
    ],
  });

export const PUSH_DEVICE_LIST = deviceList('push_device', 'push_device', '/api/v1/push/devices');
export const PRECISION_DEVICE_LIST = deviceList('precision_push_device', 'precision_push_device', '/api/v1/push/precision/devices');

type Send = typeof pushSends.$inferSelect;
const toSendAnswer = (s: Send) => {
  const seg = s.segment as PushSegmentSpec;
  return {
    id: s.id, kind: s.kind, title: s.title, body: s.body,
    segment: { ...(seg.platform ? { platform: seg.platform } : {}), ...(seg.app_version ? { app_version: seg.app_version } : {}) },
    target_count: s.targetCount, sent_count: s.sentCount, failed_count: s.failedCount, invalid_count: s.invalidCount, status: s.status,
    sender_admin_id: s.senderAdminId, created_at: s.createdAt.toISOString(), finished_at: iso(s.finishedAt),
  };
};

/** A push of the caller's branch (its sender in the caller's subtree), of the given kind; 404 otherwise. */
async function ownedSend(ex: Executor, auth: AuthContext, id: number, kind: 'public' | 'precision'): Promise<Send> {
  const [row] = await ex
    .select({ s: pushSends })
    .from(pushSends)
    .innerJoin(admins, eq(admins.id, pushSends.senderAdminId))
    .where(and(eq(pushSends.id, id), eq(pushSends.kind, kind)));
  if (!row) throw notFound();
  const [visible] = await ex.select({ id: admins.id }).from(admins).where(and(eq(admins.id, row.s.senderAdminId), subtreeCondition(auth)));
  if (!visible) throw new AppError(403, 'OUT_OF_SCOPE');
  return row.s;
}

const agentIdsOf = (scope: Scope) => (scope.all ? null : scope.agentIds);

export function pushRoutes(app: FastifyInstance, ctx: AppContext, opts: { sandboxRoutes?: boolean } = {}) {
  const { db } = ctx;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['push'];
  definePushJobs(ctx);

  registerResource(app, db, {
    def: pushConfigResource,
    table: pushConfig,
    singletonId: 1,
    prepare: async (v, { req, ex }) => {
      if (v.project_id !== undefined && v.project_id !== '' && !/^[a-z][a-z0-9-]{3,40}$/.test(String(v.project_id))) {
        throw badRequest('PARAM_INVALID', [{ field: 'project_id', message: 'a Firebase project id (lowercase letters, digits, dashes)' }]);
      }
      if (typeof v.service_account_json === 'string' && v.service_account_json !== '' && !parseServiceAccount(v.service_account_json)) {
        throw badRequest('PARAM_INVALID', [{ field: 'service_account_json', message: 'a service account key file (JSON with type, client_email and private_key)' }]);
      }
    },
  });

  registerList(app, db, PUSH_DEVICE_LIST);
  if (opts.sandboxRoutes) pushSandboxRoutes(app, ctx, toDeviceRow);
  registerList(app, db, PRECISION_DEVICE_LIST);

  r.get(
    '/api/v1/push/count',
    { config: { access: { page: 'push_device', button: 'push' } }, schema: { tags, summary: 'How many valid devices of my branch a public push to this segment reaches', querystring: pushSegmentQuery, response: { 200: pushCountAnswer } } },
    async (req) => {
      const scope = await scopeOf(db, authOf(req));
      return { count: await countTargets(db, { ...req.query, agent_ids: agentIdsOf(scope) }) };
    },
  );

  r.post(
    '/api/v1/push/public',
    { config: { access: { page: 'push_device', button: 'push' } }, schema: { tags, summary: 'Public push: to every valid device of my branch or a segment (platform, app version), sent by a background job', body: pushPublicBody, response: { 202: pushSendAnswer } } },
    async (req, reply) => {
      const auth = authOf(req);
      const scope = await scopeOf(db, auth);
      const { title, body, segment } = req.body;
      const created = await db.transaction(async (tx) => {
        const row = await createPush(ctx, tx, { kind: 'public', title, body, segment: { ...segment, agent_ids: agentIdsOf(scope) }, senderAdminId: auth.admin.id });
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Public push #${row.id} to ${row.targetCount} devices`, after: { title, body, segment } });
        return row;
      });
      return reply.status(202).send(toSendAnswer(created));
    },
  );

  r.post(
    '/api/v1/push/precision',
    { config: { access: { page: 'precision_push_device', button: 'push' } }, schema: { tags, summary: 'Precision push: to one or a few chosen devices of my branch; the result per device follows', body: pushPrecisionBody, response: { 202: pushSendAnswer } } },
    async (req, reply) => {
      const auth = authOf(req);
      const scope = await scopeOf(db, auth);
      const ids = [...new Set(req.body.device_ids)];
      const found = await db.select({ id: pushDevices.id, agentId: pushDevices.agentId }).from(pushDevices).where(inArray(pushDevices.id, ids));
      if (found.length !== ids.length) throw notFound();
      if (found.some((d) => !(scope.all || (d.agentId !== null && agentInScope(scope, d.agentId))))) throw new AppError(403, 'OUT_OF_SCOPE');
      const created = await db.transaction(async (tx) => {
        const row = await createPush(ctx, tx, { kind: 'precision', title: req.body.title, body: req.body.body, segment: { device_ids: ids.sort((a, b) => a - b) }, senderAdminId: auth.admin.id });
        await writeAudit(tx, req, { type: LOG_TYPE.ordinary, content: `Precision push #${row.id} to devices ${ids.join(', ')}`, after: { title: req.body.title, body: req.body.body, device_ids: ids } });
        return row;
      });
      return reply.status(202).send(toSendAnswer(created));
    },
  );

  r.get(
    '/api/v1/push/sends/:id',
    { config: { access: { page: 'push_device' } }, schema: { tags, summary: "A public push's progress (counters and state)", params: idParams, response: { 200: pushSendAnswer } } },
    async (req) => toSendAnswer(await ownedSend(db, authOf(req), req.params.id, 'public')),
  );

  r.get(
    '/api/v1/push/precision/:id',
    { config: { access: { page: 'precision_push_device' } }, schema: { tags, summary: 'A precision push with the result per device', params: idParams, response: { 200: pushSendDetail } } },
    async (req) => {
      const send = await ownedSend(db, authOf(req), req.params.id, 'precision');
      const ids = (send.segment as PushSegmentSpec).device_ids ?? [];
      const devices = ids.length ? await db.select({ id: pushDevices.id, model: pushDevices.model, phone: pushDevices.phone }).from(pushDevices).where(inArray(pushDevices.id, ids)) : [];
      const results = await db.select().from(pushResults).where(eq(pushResults.sendId, send.id)).orderBy(asc(pushResults.deviceId));
      const byDevice = new Map(results.map((x) => [x.deviceId, x]));
      return {
        ...toSendAnswer(send),
        results: devices
          .sort((a, b) => a.id - b.id)
          .map((d) => {
            const x = byDevice.get(d.id);
            return { device_id: d.id, model: d.model, phone: d.phone, status: x?.status ?? 'queued', error: x?.error ?? null, provider_id: x?.providerId ?? null };
          }),
      };
    },
  );
}
