/**
 * Foundation figures (issue: cold start, JS loaded by the login page and by the shell, sign-in round trip).
 * Run: `npm run build && node --import tsx bench/foundation.ts`. Prints figures; never a gate.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import net from 'node:net';
import { chromium, type Page } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const PASSWORD = 'Bench#2026pass';

const freePort = () =>
  new Promise<number>((res) => {
    const s = net.createServer().listen(0, () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => res(p));
    });
  });

async function startServer(dataDir: string, port: number) {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, DAU_DATA_DIR: dataDir, PORT: String(port), DAU_ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/`);
      if (r.ok && (await r.text()).includes('<div id="root">')) break;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, ms: performance.now() - t0 };
}

async function jsLoaded(page: Page, action: () => Promise<void>) {
  const seen = new Map<string, number>();
  const onResponse = async (res: import('playwright-core').Response) => {
    if (!res.url().endsWith('.js')) return;
    try {
      const body = await res.body();
      seen.set(res.url(), zlib.gzipSync(body, { level: 9 }).length);
    } catch {
      /* redirected or aborted */
    }
  };
  page.on('response', onResponse);
  await action();
  await page.waitForLoadState('networkidle');
  page.off('response', onResponse);
  return { files: seen.size, kb: [...seen.values()].reduce((a, b) => a + b, 0) / 1024 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) throw new Error('run `npm run build` first');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dau-bench-'));
  const port = await freePort();
  const cold = await startServer(dataDir, port);
  const base = `http://127.0.0.1:${port}`;
  process.kill(-cold.child.pid!, 'SIGTERM');
  await new Promise((r) => cold.child.on('exit', r));
  const warm = await startServer(dataDir, port);

  const rtts: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    const r = await fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ account: 'admin', password: PASSWORD }) });
    await r.json();
    rtts.push(performance.now() - t0);
  }

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
  const page = await (await browser.newContext()).newPage();
  const login = await jsLoaded(page, async () => {
    await page.goto(`${base}/#/admin_login`);
    await page.getByTestId('login-submit').waitFor();
  });
  const shell = await jsLoaded(page, async () => {
    await page.getByTestId('login-account').fill('admin');
    await page.getByTestId('login-password').fill(PASSWORD);
    const t0 = performance.now();
    await page.getByTestId('login-submit').click();
    await page.getByTestId('side-menu').waitFor();
    console.log(`sign-in in the browser to the shell: ${(performance.now() - t0).toFixed(0)} ms`);
  });
  await browser.close();
  process.kill(-warm.child.pid!, 'SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });

  console.log(`cold start (new database: migrate, seed, listen) to a served login page: ${cold.ms.toFixed(0)} ms`);
  console.log(`warm start (existing database) to a served login page: ${warm.ms.toFixed(0)} ms`);
  console.log(`sign-in round trip (POST /auth/login, argon2id), median of 20: ${median(rtts).toFixed(1)} ms`);
  console.log(`JS loaded by the login page: ${login.kb.toFixed(1)} KB gzip in ${login.files} files`);
  console.log(`JS loaded on top by the shell (first screen): ${shell.kb.toFixed(1)} KB gzip in ${shell.files} files`);
}

await main();
