import { spawn } from 'node:child_process';
import { z } from 'zod';
import { ROOT } from '../../../platform/paths.js';
import { defineScript } from './types.js';


/**
 * Rebuilds the console (`npm run build`, a fixed command without a shell). Dangerous: while it runs the
 * console's files are replaced, and it takes the machine's CPU for a minute; a second admin approves.
 * The dry run prints what it would run.
 */
export const rebuildConsole = defineScript({
  name: 'rebuild-console',
  version: 1,
  dangerous: true,
  changesData: true,
  args: z.strictObject({}),
  fields: [],
  async run(sc) {
    await sc.out(`${sc.dryRun ? 'would run' : 'running'}: npm run build (in ${ROOT})`);
    if (sc.dryRun) return { built: false };
    const code = await new Promise<number>((resolve, reject) => {
      const child = spawn('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
      let pending = Promise.resolve();
      const lines = (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split(/\r?\n/)) if (line.trim()) pending = pending.then(() => sc.out(line.slice(0, 2000)));
      };
      child.stdout.on('data', lines);
      child.stderr.on('data', lines);
      child.on('error', reject);
      child.on('close', (c) => void pending.then(() => resolve(c ?? 1)));
    });
    await sc.out(`npm run build exited with ${code}`);
    if (code !== 0) throw new Error(`npm run build exited with ${code}`);
    return { built: true };
  },
});
