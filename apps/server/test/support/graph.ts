import fs from 'node:fs';
import path from 'node:path';
import { MODULES, SRC, specifiers, tsFiles } from './imports.js';

/** Every file of the server's sources and the files of ours it imports (relative specifiers, resolved). */
export function fileGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of tsFiles(SRC)) {
    const to = new Set<string>();
    for (const { spec } of specifiers(fs.readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      let target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
      if (!target.endsWith('.ts')) target += '.ts';
      if (fs.existsSync(target)) to.add(path.relative(SRC, target));
    }
    graph.set(path.relative(SRC, file), [...to].sort());
  }
  return graph;
}

/** The modules each module imports (any file of one to any file of another). */
export function moduleGraph(): Map<string, string[]> {
  const graph = new Map<string, Set<string>>();
  const moduleOf = (f: string) => (f.startsWith(`modules${path.sep}`) ? f.split(path.sep)[1]! : null);
  for (const [file, targets] of fileGraph()) {
    const from = moduleOf(file);
    if (!from) continue;
    const set = graph.get(from) ?? new Set<string>();
    graph.set(from, set);
    for (const t of targets) {
      const to = moduleOf(t);
      if (to && to !== from) set.add(to);
    }
  }
  void MODULES;
  return new Map([...graph].map(([k, v]) => [k, [...v].sort()]));
}

/** The strongly connected components with more than one member (Tarjan): each is an import loop. */
export function loops(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}
