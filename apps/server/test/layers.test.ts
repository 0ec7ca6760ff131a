import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, specifiers, tsFiles } from './support/imports.js';

/**
 * The layering rule (docs/architecture.md "Layers"): the platform is what every module stands on, so no
 * file under src/platform imports a module or the simulator. Modules register what the platform needs
 * (seeds, socket channels); the composition root (app.ts, main.ts, seed.ts, schema.ts) wires them.
 */
const PLATFORM = path.join(SRC, 'platform');
const FORBIDDEN = ['modules', 'simulator'].map((d) => path.join(SRC, d));
/** The composition root: it imports every module, so importing it is importing them (src/schema.ts gathers their tables). */
const ROOT_FILES = ['app', 'main', 'seed', 'schema'].map((f) => path.join(SRC, f));

/** The imports of platform files that reach into src/modules or src/simulator, as `file:line -> specifier`. */
export function upwardImports(): string[] {
  const bad: string[] = [];
  for (const file of tsFiles(PLATFORM)) {
    for (const { spec, line } of specifiers(fs.readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      const bare = target.replace(/\.(js|ts)$/, '');
      if (FORBIDDEN.some((d) => target === d || target.startsWith(d + path.sep)) || ROOT_FILES.includes(bare)) {
        bad.push(`${path.relative(SRC, file)}:${line} -> ${spec}`);
      }
    }
  }
  return bad.sort();
}

describe('layers', () => {
  it('finds the platform files', () => {
    expect(tsFiles(PLATFORM).length).toBeGreaterThan(10);
  });

  it('no file under src/platform imports from src/modules, src/simulator or the composition root', () => {
    expect(upwardImports(), 'platform files importing a module or the simulator').toEqual([]);
  });
});
