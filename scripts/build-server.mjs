/**
 * Compiles the server to one JavaScript file, apps/server/dist/main.js, what `npm start` runs (node, no
 * TypeScript loader): the server's sources and the workspace packages (@dau/domain, @dau/contract) are
 * bundled; the npm packages stay outside (node loads them from node_modules, with their native parts and
 * data files such as PGlite's WebAssembly). A source map keeps stack traces on the TypeScript lines.
 */
import { build } from 'esbuild';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** npm packages stay external; the workspace's own (TypeScript sources) are compiled in. */
const npmPackagesOutside = {
  name: 'npm-packages-outside',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@dau/') ? undefined : { path: args.path, external: true }));
  },
};

/** Compiles apps/server/src/main.ts to `outfile` (inside the checkout: node finds the npm packages from there). */
export async function buildServer(outfile = path.join(ROOT, 'apps/server/dist/main.js')) {
  const result = await build({
    entryPoints: [path.join(ROOT, 'apps/server/src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: true,
    // Stack traces name the TypeScript file and line from the mappings alone; the sources themselves would
    // sit in every process's memory (node --enable-source-maps keeps the whole map).
    sourcesContent: false,
    legalComments: 'none',
    plugins: [npmPackagesOutside],
    logLevel: 'warning',
    metafile: true,
  });
  return Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const started = Date.now();
  const bytes = await buildServer();
  console.log(`server compiled to apps/server/dist/main.js in ${Date.now() - started} ms (${(bytes / 1024).toFixed(0)} KB with its source map)`);
}
