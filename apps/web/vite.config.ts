import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { MESSAGES } from '../../packages/domain/src/messages';
import { LABELS } from '../../packages/domain/src/labels';
import { SUPPORTED_LOCALES, type Locale } from '../../packages/domain/src/locale';
import { SIGN_IN_CODES } from './src/kit/signInCodes';

/**
 * `virtual:spec-messages/<locale>`: the domain's messages the public pages can show (src/kit/signInCodes.ts)
 * in one language; `virtual:spec-messages/<locale>/console`: every other message in that language, fetched
 * with the shell (src/kit/spec-messages.ts). The console never downloads every message in three languages,
 * and the sign-in page only the few it can show.
 */
function specMessages(): Plugin {
  const PREFIX = 'virtual:spec-messages/';
  const signIn = new Set<string>(SIGN_IN_CODES);
  return {
    name: 'dau-spec-messages',
    resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const [lng, part] = id.slice(PREFIX.length + 1).split('/') as [Locale, string | undefined];
      if (!(SUPPORTED_LOCALES as readonly string[]).includes(lng)) throw new Error(`no messages for ${lng}`);
      if (part !== undefined && part !== 'console') throw new Error(`no message part ${part}`);
      const texts = Object.fromEntries(
        Object.entries(MESSAGES)
          .filter(([code]) => signIn.has(code) === (part === undefined))
          .map(([code, t]) => [code, (t as Record<Locale, string>)[lng]]),
      );
      return `export default ${JSON.stringify(texts)};`;
    },
  };
}

/**
 * `virtual:domain-labels/<locale>`: the labels of the domain's enumerations in one language (src/kit/labels.ts
 * loads the language shown), so a list's tags and filters do not bring every label in three languages.
 */
function domainLabels(): Plugin {
  const PREFIX = 'virtual:domain-labels/';
  return {
    name: 'dau-domain-labels',
    resolveId: (id) => (id.startsWith(PREFIX) ? `\0${id}` : undefined),
    load(id) {
      if (!id.startsWith(`\0${PREFIX}`)) return undefined;
      const lng = id.slice(PREFIX.length + 1) as Locale;
      if (!(SUPPORTED_LOCALES as readonly string[]).includes(lng)) throw new Error(`no labels for ${lng}`);
      return `export default ${JSON.stringify(LABELS[lng].enums)};`;
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    specMessages(),
    domainLabels(),
    // Each script, style sheet and page beside its brotli (.br) and gzip (.gz) copy, made once at build: the
    // server sends the one the browser accepts (apps/server/src/app.ts), without compressing per request.
    compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|html|svg|json)$/, threshold: 1024, logLevel: 'silent' }),
  ],
  base: './',
  build: {
    outDir: 'dist',
    sourcemap: false,
    // dist/.vite/manifest.json: which chunks each entry and lazy module loads (read by bench/console-bundle.ts).
    manifest: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      experimental: {
        // Rolldown's default moves modules shared by lazy chunks into the entry chunk when that is "safe"
        // (every lazy chunk loads the entry anyway): the sign-in page then downloads the code of screens
        // it never shows. Shared modules stay in chunks of their own, loaded by the screens that use them.
        chunkOptimization: { mergeCommonChunks: false },
        lazyBarrel: true,
      },
      treeshake: {
        // The console's modules and the workspace packages it imports from source (@dau/domain,
        // @dau/contract) do nothing when imported but declare things: a screen that takes one helper from
        // a barrel (resources/index.ts, @dau/domain) must not bring every module the barrel names. CSS
        // imports keep their effect. Other packages keep what their package.json says.
        // Modules whose work is their top-level code (registering ECharts' charts, dayjs' plugins and
        // language) are listed first: what screens import from them is a re-export, which alone would let
        // the bundler drop their body (first matching rule wins).
        moduleSideEffects: [
          { test: /\.css$/, sideEffects: true },
          { test: /[\\/]src[\\/](pages[\\/]statistics[\\/]echarts|kit[\\/]dayjs)\.ts$/, sideEffects: true },
          { test: /[\\/](apps[\\/]web|packages[\\/](domain|contract))[\\/]src[\\/].*\.tsx?$/, sideEffects: false },
        ],
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:6009', '/uploads': 'http://localhost:6009', '/ws': { target: 'ws://localhost:6009', ws: true } },
  },
});
