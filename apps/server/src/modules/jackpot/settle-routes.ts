import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.js';

/** The jackpot's settlement routes (preview, settle, records, delete): written by the settlement work. */
export async function settleRoutes(_app: FastifyInstance, _ctx: AppContext) {}
