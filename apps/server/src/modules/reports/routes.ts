import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';
import { auditRoutes } from './audit/routes.js';
import { closeRoutes } from './close/routes.js';
import { taxRoutes } from './tax/routes.js';

/** Every report's routes (each folder declares its own). */
export function reportsRoutes(app: FastifyInstance, ctx: AppContext) {
  closeRoutes(app, ctx);
  taxRoutes(app, ctx);
  auditRoutes(app, ctx);
}
