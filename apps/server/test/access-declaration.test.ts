import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { eq } from 'drizzle-orm';
import { installAccessControl } from '../src/platform/access.js';
import { openPglite } from '../src/platform/db.js';
import { ADMIN_PASSWORD, createTestApp } from './helpers.js';
import { systemLogs } from '../src/platform/schema.js';

describe('route declarations', () => {
  it('the server refuses to start when a route declares no access', async () => {
    const database = await openPglite();
    try {
      const app = Fastify();
      installAccessControl(app, database.db);
      app.get('/declared', { config: { access: { public: true } } }, async () => 'ok');
      // Registration itself fails, so no server with an unguarded route can come up.
      expect(() => app.get('/undeclared', async () => 'oops')).toThrow(/GET \/undeclared declares no access/);
      await app.close();
    } finally {
      await database.close();
    }
  });
});

describe('the audit safety net', () => {
  it('writes a row for a mutating call that failed validation, with its status and code, and none of its secrets', async () => {
    const t = await createTestApp();
    try {
      const token = await t.login('admin', ADMIN_PASSWORD);
      const r = await t.call('POST', '/api/v1/system/administrators', { token, body: { account: 'x', role_id: 'not-a-number', password: 'Secret#123456' } });
      expect(r.status).toBe(400);
      const rows = await t.database.db.select().from(systemLogs).where(eq(systemLogs.status, 400));
      expect(rows).toHaveLength(1);
      expect(rows[0].content).toContain('PARAM_INVALID');
      expect(rows[0].account).toBe('admin');
      expect(JSON.stringify(rows[0].after)).not.toContain('Secret#123456');
    } finally {
      await t.close();
    }
  });
});
