/**
 * A process that takes one job and never finishes it (jobs.test.ts kills it with -9): on DATABASE_URL,
 * queue `test.hang`, job expiry an hour (only its process's death can free the job). Prints
 * `key <liveness key>` once started and `took <job id>` when its handler holds the job.
 */
import { openPostgres } from '../../src/platform/db.js';
import { Jobs } from '../../src/platform/jobs.js';

const database = await openPostgres(process.env.DATABASE_URL!, { max: 2 });
const jobs = new Jobs(database, { expireInSeconds: 3600, log: (msg, err) => console.error(msg, err ?? '') });
jobs.define<{ tag: string }>('test.hang', async () => {
  console.log(`took ${process.env.DAU_JOB_TAG}`);
  await new Promise(() => {});
});
await jobs.start();
console.log(`key ${jobs.livenessKey}`);
await jobs.send(database.db, 'test.hang', { tag: process.env.DAU_JOB_TAG });
