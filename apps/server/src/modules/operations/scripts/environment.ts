import os from 'node:os';
import { defineReadOnlyScript } from './types.js';

/**
 * Prints how this process is configured: Node, host, the DAU_* and database settings. Secrets (any
 * setting named like a password, token, secret or key, and the password of a connection string) come
 * out as *** through the runner's redaction, like every line of every script.
 */
export const environment = defineReadOnlyScript({
  name: 'server-environment',
  version: 1,
  async run(sc) {
    await sc.out(`node ${process.version} on ${os.hostname()} (${os.platform()} ${os.arch()}), pid ${process.pid}, database ${sc.database.kind}`);
    const names = Object.keys(process.env).filter((k) => /^(DAU_|DATABASE_URL$|TRON_|PG)/.test(k)).sort();
    for (const k of names) await sc.out(`${k}=${process.env[k]}`);
    return { settings: names.length };
  },
});
