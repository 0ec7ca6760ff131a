/**
 * Messaging (issue 15, MSG): the message board, in-app messages (sends and their durable fan-out) and
 * the app versions. Other modules, the simulator and a bettor app reach it through what is exported here.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { appVersionResources } from './resources.js';
import { boardRoutes, messageRoutes, publicAppVersionRoutes } from './routes.js';
import { DELIVER_JOB, defineDeliverJob } from './service.js';
import { messagingSandboxRoutes } from './sandbox-routes.js';

/** `sandboxRoutes`: the sandbox-only bettor requests (DAU_SANDBOX_ROUTES=1). */
export function messagingRoutes(app: FastifyInstance, ctx: AppContext, opts: { sandboxRoutes?: boolean } = {}) {
  defineDeliverJob(ctx.db, ctx.jobs);
  if (opts.sandboxRoutes) messagingSandboxRoutes(app, ctx);
  boardRoutes(app, ctx);
  messageRoutes(app, ctx);
  appVersionResources(app, ctx);
  publicAppVersionRoutes(app, ctx);
}

/** Resolves when no delivery job is waiting or running (tests, benches). */
export const drainMessaging = (ctx: Pick<AppContext, 'jobs'>) => ctx.jobs.drain([DELIVER_JOB]);

export { postBoardMessage, inbox, markMessageRead, checkAppVersion, createSend, resolvePhones, branchCondition, DELIVER_JOB, messageChunk, type InboxPage } from './service.js';
export { seedDemoAppVersions } from './seed.js';
