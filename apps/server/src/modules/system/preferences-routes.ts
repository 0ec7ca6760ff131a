import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { eq, sql } from 'drizzle-orm';
import { admins } from '../../platform/schema.js';
import { authOf } from '../../platform/access.js';
import { badRequest } from '../../platform/errors.js';
import type { AppContext } from '../../platform/context.js';
import { isTimeZone, timeZoneOf } from '../../platform/csv.js';

const preferences = z.object({ time_zone: z.string() });
const preferencesBody = z.strictObject({
  /** An IANA time zone (e.g. Africa/Dar_es_Salaam): the console shows this admin's times in it, exports write them with its offset. */
  time_zone: z.string().trim().min(1).max(64),
});

/**
 * One's own display preferences, kept per admin (DESIGN "Time": times are shown in the operator's zone,
 * Africa/Dar_es_Salaam unless the admin chose another). Any signed-in admin reads and sets their own;
 * nobody sets another's.
 */
export function preferenceRoutes(app: FastifyInstance, { db }: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const base = '/api/v1/auth/preferences';

  r.get(base, { config: { access: { signedIn: true } }, schema: { tags: ['auth'], summary: "One's own preferences (time zone)", response: { 200: preferences } } }, async (req) => {
    return { time_zone: await timeZoneOf(db, authOf(req).admin.id) };
  });

  r.put(
    base,
    { config: { access: { signedIn: true } }, schema: { tags: ['auth'], summary: "Set one's own time zone", body: preferencesBody, response: { 200: preferences } } },
    async (req) => {
      const zone = req.body.time_zone;
      if (!isTimeZone(zone)) throw badRequest('PARAM_INVALID', [{ field: 'time_zone', message: 'not a known time zone (IANA name, e.g. Africa/Dar_es_Salaam)' }]);
      await db.update(admins).set({ timeZone: zone, updatedAt: sql`now()` }).where(eq(admins.id, authOf(req).admin.id));
      return { time_zone: zone };
    },
  );
}
