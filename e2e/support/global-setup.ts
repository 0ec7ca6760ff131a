import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { ADMIN_PASSWORD, ROOT, serverCommand } from './server.js';

/**
 * The browser phase's prepared data folders (issue 24): the server's own start (`DAU_SETUP_ONLY=1`:
 * migrate, seed, exit) once per run for an empty back office and once with the demo data; each test file's
 * server starts on a copy of one (e2e/support/server.ts) instead of migrating and seeding its own.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    dauDataDirs: { plain: string; demo: string };
  }
}

function prepare(dataDir: string, demo: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    const env: NodeJS.ProcessEnv = { ...process.env, DAU_DATA_DIR: dataDir, DAU_ADMIN_PASSWORD: ADMIN_PASSWORD, DAU_DEMO: demo ? '1' : '0', DAU_SETUP_ONLY: '1', LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    delete env.TEST_DATABASE_URL;
    const child = spawn(process.execPath, serverCommand(), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`preparing ${dataDir} failed (exit ${code}):\n${out}`))));
  });
}

export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-e2e-templates-'));
  const dirs = { plain: path.join(dir, 'plain'), demo: path.join(dir, 'demo') };
  await Promise.all([prepare(dirs.plain, false), prepare(dirs.demo, true)]);
  project.provide('dauDataDirs', dirs);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
