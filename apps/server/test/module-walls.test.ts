import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULES, pastTheIndex, tsFiles } from './support/imports.js';

/**
 * Modules behind their index (issue 26; docs/architecture.md "Layers"): a module reaches another only
 * through that module's `index.ts` (its service and types); its other files — tables, routes, internals —
 * are its own. The composition root (app.ts, main.ts, seed.ts, schema.ts) and the simulator wire modules and
 * may reach anywhere.
 *
 * The imports that still reach past an index are listed in ./module-walls.known.txt, one
 * `importing file -> imported file` a line: a ratchet while the remaining tables move behind services.
 * An import past an index that is not on the list fails; so does a line of the list that no longer
 * exists (take it off: the list only shrinks).
 */
const KNOWN = path.join(path.dirname(new URL(import.meta.url).pathname), 'module-walls.known.txt');

const known = () => fs.readFileSync(KNOWN, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));

describe('module walls', () => {
  it('reads the modules and finds imports through indexes', () => {
    const viaIndex = tsFiles(MODULES).filter((f) => /from '\.\.\/[a-z-]+\/index\.js'/.test(fs.readFileSync(f, 'utf8')));
    expect(viaIndex.length).toBeGreaterThan(20);
  });

  it('no module reaches past another module\'s index beyond the known list', () => {
    const now = pastTheIndex();
    const list = new Set(known());
    expect(now.filter((l) => !list.has(l)), 'imports past an index: use the module\'s index.ts (export what is needed there)').toEqual([]);
    expect([...list].filter((l) => !now.includes(l)), 'lines of module-walls.known.txt that no longer exist: take them off').toEqual([]);
  });
});
