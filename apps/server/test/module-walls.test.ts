import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODULES, pastTheIndex, tsFiles } from './support/imports.js';
import { fileGraph, loops, moduleGraph } from './support/graph.js';

/**
 * Modules behind their index (issue 26; docs/architecture.md "Layers"): a module reaches another only
 * through that module's `index.ts` (its services, types and the read-only faces of its tables); its other
 * files — tables, routes, internals — are its own. The composition root (app.ts, main.ts, seed.ts,
 * schema.ts) and the simulator wire modules and may reach anywhere. Modules depend on each other one way:
 * no loop between modules, and no loop between the server's files.
 */
describe('module walls', () => {
  it('reads the modules and finds imports through indexes', () => {
    const viaIndex = tsFiles(MODULES).filter((f) => /from '\.\.\/[a-z-]+\/index\.js'/.test(fs.readFileSync(f, 'utf8')));
    expect(viaIndex.length).toBeGreaterThan(40);
  });

  it('no module reaches past another module\'s index', () => {
    expect(pastTheIndex(), 'imports past an index: use the module\'s index.ts (export what is needed there)').toEqual([]);
  });

  it('the modules depend on each other one way (no loop)', () => {
    const graph = moduleGraph();
    expect(graph.get('betting')).toContain('money');
    expect(loops(graph), 'modules that import each other, directly or around a loop').toEqual([]);
  });

  it('no file of the server imports itself around a loop', () => {
    const graph = fileGraph();
    expect(graph.size).toBeGreaterThan(200);
    expect(loops(graph), 'files that import each other, directly or around a loop').toEqual([]);
  });
});

describe('the loop finder', () => {
  it('finds a loop of three and leaves a chain alone', () => {
    const g = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(loops(g)).toEqual([['a', 'b', 'c']]);
    expect(loops(new Map([['a', ['b']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });
});
