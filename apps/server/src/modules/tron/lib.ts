/**
 * TronWeb, loaded when TRON is first used rather than at start (issue 25): with ethers under it, it is
 * about 0.4 s of a server's start and 44 MB of its memory, and a process answers requests before its
 * first TRON block or wallet action needs it. Types come from `import type { ... } from 'tronweb'`.
 */
import type * as Tron from 'tronweb';
import { onFirstUse } from '../../platform/lazy.js';

export const tronweb = onFirstUse<typeof Tron>('tronweb');
