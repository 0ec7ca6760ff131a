import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server's sources, and what the structure tests (layers, module walls) read of them. */
export const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

export function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

/** Every module specifier of a file with its line: `import … from`, `export … from`, `import '…'` and `import('…')`. */
export function specifiers(text: string): { spec: string; line: number }[] {
  const found: { spec: string; line: number }[] = [];
  const patterns = [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /^\s*import\s*['"]([^'"]+)['"]/gm];
  for (const re of patterns) {
    for (const m of text.matchAll(re)) {
      found.push({ spec: m[1]!, line: text.slice(0, m.index).split('\n').length });
    }
  }
  return found;
}

export const MODULES = path.join(SRC, 'modules');

/** `modules/a/x.ts -> modules/b/y.ts` for every import of module b's file other than its index by module a. */
export function pastTheIndex(): string[] {
  const found = new Set<string>();
  for (const file of tsFiles(MODULES)) {
    const own = path.relative(MODULES, file).split(path.sep)[0];
    for (const { spec } of specifiers(fs.readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
      if (!target.startsWith(MODULES + path.sep)) continue;
      const [module, ...rest] = path.relative(MODULES, target).split(path.sep);
      if (module === own || rest.join('/') === 'index.ts') continue;
      found.add(`${path.relative(SRC, file)} -> ${path.relative(SRC, target)}`);
    }
  }
  return [...found].sort();
}

