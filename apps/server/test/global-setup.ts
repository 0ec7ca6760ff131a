import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/platform/db.js';
import { seed } from '../src/seed.js';
import { ADMIN_PASSWORD } from './constants.js';
// @ts-expect-error: a plain JavaScript build script, without type declarations
import { buildServer } from '../../../scripts/build-server.mjs';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * Fixtures made once per run (issue 24): the migrations and the seed run here, once, and every test file
 * starts from a copy — on PostgreSQL a database created from a template (`CREATE DATABASE … TEMPLATE`),
 * on PGlite a data folder loaded from a dump. Two templates: `migrated` (the schema, no rows: what
 * `freshDatabase()` gives) and `seeded` (plus the reference rows and the super admin: what
 * `createTestApp()` gives). A file's copy is its own: files run in parallel and in any order.
 */
export interface Templates {
  pglite?: { migrated: string; seeded: string };
  pg?: { url: string; migrated: string; seeded: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    dauTemplates: Templates;
    /** The server compiled once for the run (what `npm start` runs): the files that start server processes run it. */
    dauServerMain: string;
  }
}

async function pgAdmin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

export default async function setup(project: TestProject) {
  // The project's engine (vitest.config.ts sets TEST_DATABASE_URL per project), else the run's.
  const url = project.config.env?.TEST_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  const templates: Templates = {};
  let teardown = async () => {};
  if (url) {
    const tag = `dau_tpl_${crypto.randomBytes(4).toString('hex')}`;
    const migrated = `${tag}_m`;
    const seeded = `${tag}_s`;
    await pgAdmin(url, (c) => c.query(`CREATE DATABASE ${migrated}`));
    let d = await openPostgres(withDatabase(url, migrated), { max: 4 });
    await d.migrate();
    await d.close();
    await pgAdmin(url, (c) => c.query(`CREATE DATABASE ${seeded} TEMPLATE ${migrated}`));
    d = await openPostgres(withDatabase(url, seeded), { max: 4 });
    await seed(d.db, { adminPassword: ADMIN_PASSWORD, demo: false });
    await d.close();
    templates.pg = { url, migrated, seeded };
    teardown = () => pgAdmin(url, async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${migrated} WITH (FORCE)`), await c.query(`DROP DATABASE IF EXISTS ${seeded} WITH (FORCE)`)));
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-templates-'));
    const d = await openPglite();
    await d.migrate();
    const migrated = path.join(dir, 'migrated.tar');
    fs.writeFileSync(migrated, Buffer.from(await (await d.dump!()).arrayBuffer()));
    await seed(d.db, { adminPassword: ADMIN_PASSWORD, demo: false });
    const seeded = path.join(dir, 'seeded.tar');
    fs.writeFileSync(seeded, Buffer.from(await (await d.dump!()).arrayBuffer()));
    await d.close();
    templates.pglite = { migrated, seeded };
    teardown = async () => fs.rmSync(dir, { recursive: true, force: true });
  }
  project.provide('dauTemplates', templates);
  // The crash and multi-process files start real server processes, several times each: compiled once
  // here (half a second), each start skips loading TypeScript (scripts/build-server.mjs).
  fs.mkdirSync(path.join(ROOT, 'apps/server/dist'), { recursive: true });
  const serverDir = fs.mkdtempSync(path.join(ROOT, 'apps/server/dist/test-run-'));
  const serverMain = path.join(serverDir, 'main.js');
  await buildServer(serverMain);
  project.provide('dauServerMain', serverMain);
  return async () => {
    fs.rmSync(serverDir, { recursive: true, force: true });
    await teardown();
  };
}
