import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The console's imports point one way: app/ (App.tsx, main.tsx, the shell, the router, the screen registry)
 * → pages/ → resources/ → kit/ (the api client, the providers' hooks: access, auth, messages, dialog, zone,
 * live socket, market names...) with locales/ beside kit/. A folder imports its own files and those below
 * it, never above; no file imports itself back through others (static, dynamic or type-only imports alike).
 * Read from the sources with a scanner of import lines: no compiler, a few milliseconds.
 */
const SRC = path.resolve(import.meta.dirname, '../src');

/** The layer of a file: it may import its own layer and those below (smaller), never above. */
const LAYERS: [RegExp, number, string][] = [
  [/^(app\/|App\.tsx$|main\.tsx$)/, 3, 'app'],
  [/^pages\//, 2, 'pages'],
  [/^resources\//, 1, 'resources'],
  [/^(kit|locales)\//, 0, 'kit'],
];

function layerOf(file: string): { level: number; name: string } {
  const hit = LAYERS.find(([re]) => re.test(file));
  if (!hit) throw new Error(`${file}: no layer (add its folder to LAYERS in test/layers.test.ts)`);
  return { level: hit[1], name: hit[2] };
}

function sources(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

// `import … from '…'`, `export … from '…'` (one statement, over several lines), `import '…'`, `import('…')`.
const STATIC = /^\s*(?:import|export)\s[^'";()=]*?\sfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
const DYNAMIC = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];

/** The console files a file imports (relative specifiers only: packages are outside the graph). */
function importsOf(file: string): string[] {
  // Comment lines out (a doc comment may show an example import).
  const code = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\/\*|\*)/.test(l))
    .join('\n');
  const specs = [...code.matchAll(STATIC)].map((m) => m[1] ?? m[2]).concat([...code.matchAll(DYNAMIC)].map((m) => m[1]));
  return specs
    .filter((s) => s.startsWith('.'))
    .map((s) => {
      const base = path.resolve(path.dirname(file), s);
      const hit = EXTENSIONS.map((e) => base + e).find((p) => fs.existsSync(p) && fs.statSync(p).isFile());
      if (!hit) throw new Error(`${path.relative(SRC, file)}: cannot resolve '${s}'`);
      return hit;
    })
    .filter((p) => /\.tsx?$/.test(p));
}

const rel = (p: string) => path.relative(SRC, p).split(path.sep).join('/');
const graph = new Map(sources(SRC).map((f) => [rel(f), [...new Set(importsOf(f).map(rel))]]));

/** Strongly connected components of two or more files, or a file importing itself (Tarjan). */
function cycles(g: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || g.get(v)!.includes(v)) found.push(scc.sort());
    }
  };
  for (const v of g.keys()) if (!idx.has(v)) visit(v);
  return found;
}

describe('console layers (app → pages → resources → kit)', () => {
  it('reads the console', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('app/screens.ts')).toContain('pages/system/resourceScreens.tsx');
  });

  it('no pages, resources or kit file imports app/', () => {
    const wrong = [...graph].flatMap(([f, deps]) =>
      layerOf(f).level < 3 ? deps.filter((d) => layerOf(d).level === 3).map((d) => `${f} → ${d}`) : [],
    );
    expect(wrong).toEqual([]);
  });

  it('each folder imports only its own layer and those below (kit and locales: nothing above them)', () => {
    const wrong = [...graph].flatMap(([f, deps]) =>
      deps.filter((d) => layerOf(d).level > layerOf(f).level).map((d) => `${f} (${layerOf(f).name}) → ${d} (${layerOf(d).name})`),
    );
    expect(wrong).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle and an upward import when there is one', () => {
    const g = new Map([
      ['kit/a.ts', ['pages/b.tsx']],
      ['pages/b.tsx', ['kit/a.ts']],
      ['kit/c.ts', ['kit/c.ts']],
    ]);
    expect(cycles(g)).toEqual([['kit/a.ts', 'pages/b.tsx'], ['kit/c.ts']]);
    expect(layerOf('pages/b.tsx').level).toBeGreaterThan(layerOf('kit/a.ts').level);
  });
});
