import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { OutputBundle, OutputChunk } from 'rolldown';
import { defineConfig, type Plugin, type PluginOption, type ResolvedConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { THEME_COLORS, themeBootScript } from './src/components/theme';
import { BUILD_ASSETS_FOLDER } from './core/app-paths';
import { FEED_DEFAULTS, SORTS, TIMES } from './core/listing';
import { firstFeedBootScript, firstScreenPreloadScript } from './src/lib/first-screen';
import { SHARE_FIELDS, SHARE_PATH } from './src/lib/share/shared-items';

const THEME = THEME_COLORS.light;

/** The installable app (manifest) and the service worker built from sw/sw.ts with Workbox. */
const pwa = (): PluginOption =>
  VitePWA({
    strategies: 'injectManifest',
    srcDir: 'sw',
    filename: 'sw.ts',
    registerType: 'prompt',
    injectRegister: false,
    includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
    manifest: {
      id: './',
      name: 'Kruh',
      short_name: 'Kruh',
      description: 'A social network for you and your groups that keeps working offline.',
      lang: 'en',
      start_url: './',
      scope: './',
      display: 'standalone',
      orientation: 'any',
      theme_color: THEME,
      background_color: '#ffffff',
      categories: ['social'],
      // Sharing from another app opens the composer with the text, link and images (see sw/share-target.ts).
      share_target: {
        action: `./${SHARE_PATH}`,
        method: 'POST',
        enctype: 'multipart/form-data',
        params: {
          title: SHARE_FIELDS.title,
          text: SHARE_FIELDS.text,
          url: SHARE_FIELDS.url,
          files: [{ name: SHARE_FIELDS.files, accept: ['image/*'] }],
        },
      },
      icons: [
        { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: 'icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
    },
    injectManifest: {
      globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
    },
    devOptions: { enabled: false, type: 'module' },
  });

/**
 * A plugin of the build alone. Its hooks read the resolved config through `config()`: Vite hands
 * it over once, before any of them runs.
 */
function buildPlugin(name: string, hooks: (config: () => ResolvedConfig) => Omit<Plugin, 'name' | 'apply' | 'configResolved'>): Plugin {
  let resolved: ResolvedConfig | undefined;
  const config = (): ResolvedConfig => {
    if (!resolved) throw new Error(`${name}: the config is read before Vite resolved it`);
    return resolved;
  };
  return {
    name,
    apply: 'build',
    configResolved(value) {
      resolved = value;
    },
    ...hooks(config),
  };
}

/**
 * The entry's stylesheet inlined into index.html: the static shell there paints with the HTML
 * itself, with no request for a stylesheet in between (pages' own styles still come with their chunks).
 */
const inlineEntryCss = (): Plugin =>
  buildPlugin('kruh:inline-entry-css', () => ({
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = bundle[file];
          return asset?.type === 'asset' ? `<style>${String(asset.source)}</style>` : tag;
        });
      },
    },
  }));

/** The chosen theme applied by a script in <head>, before the static shell paints. */
const themeBoot = (): Plugin => ({
  name: 'kruh:theme-boot',
  transformIndexHtml: () => [{ tag: 'script', children: themeBootScript(), injectTo: 'head' }],
});

/** Hides the server's plain HTML feed (the page at `/`) before it paints when the app opens elsewhere. */
const firstFeedBoot = (): Plugin => ({
  name: 'kruh:first-feed-boot',
  transformIndexHtml: () => [{ tag: 'script', children: firstFeedBootScript(FEED_DEFAULTS, SORTS, TIMES), injectTo: 'head' }],
});

/** Built files worth compressing: text of 1 KB or more (pictures are compressed already). */
const PRECOMPRESSED = /\.(js|mjs|css|html|svg|webmanifest|json|txt)$/;
const PRECOMPRESS_MIN_BYTES = 1024;

/**
 * Brotli and gzip copies beside every built text file, made once at build time: the server sends
 * them (preCompressed) to browsers that accept them, so a phone downloads about a third of the bytes.
 * Made when the build has closed, after the PWA plugin wrote the service worker and put the
 * precache list into it, so sw.js gets its copies too and they hold the final list.
 */
const precompress = (): Plugin =>
  buildPlugin('kruh:precompress', (config) => ({
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const outDir = resolve(config().root, config().build.outDir);
        if (!existsSync(outDir)) return;
        for (const file of readdirSync(outDir, { recursive: true, encoding: 'utf8' })) {
          if (!PRECOMPRESSED.test(file)) continue;
          const path = join(outDir, file);
          const content = readFileSync(path);
          if (content.length < PRECOMPRESS_MIN_BYTES) continue;
          writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
          writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
        }
      },
    },
  }));

/** The modules a cold start on the explore feed needs after the entry: the screen, and its first page's prefetch. */
const FIRST_SCREEN_MODULES = ['src/features/feed/FeedPage.tsx', 'src/lib/query/feed-prefetch.ts'];

/** A chunk and every chunk it imports statically, by file name. */
function staticClosure(bundle: OutputBundle, roots: OutputChunk[]): Set<string> {
  const seen = new Set<string>();
  const queue = roots.map((c) => c.fileName);
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const chunk = bundle[file];
    if (seen.has(file) || chunk?.type !== 'chunk') continue;
    seen.add(file);
    queue.push(...chunk.imports);
  }
  return seen;
}

/**
 * The head's script that fetches the explore feed's code beside the entry when a cold start opens
 * there (see firstScreenPreloadScript): the feed's chunks and stylesheets, less what the entry
 * already brings. A module of FIRST_SCREEN_MODULES with no chunk of its own fails the build, so a
 * rename cannot quietly turn the preload off.
 */
const preloadFirstScreen = (): Plugin =>
  buildPlugin('kruh:preload-first-screen', (config) => ({
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
        const screens = FIRST_SCREEN_MODULES.map((module) => {
          const chunk = chunks.find((c) => c.isDynamicEntry && c.facadeModuleId?.endsWith(module));
          if (!chunk) throw new Error(`no chunk of ${module} to preload for the first screen`);
          return chunk;
        });
        const entry = staticClosure(bundle, chunks.filter((c) => c.isEntry));
        const scripts = [...staticClosure(bundle, screens)].filter((file) => !entry.has(file));
        const styles = scripts.flatMap((file) => [...((bundle[file] as OutputChunk).viteMetadata?.importedCss ?? [])]);
        const files = [...scripts, ...new Set(styles)].map((file) => `${config().base}${file}`);
        return [{ tag: 'script', children: firstScreenPreloadScript(files), injectTo: 'head' }];
      },
    },
  }));

export default defineConfig({
  // The test runner extends this file; it needs neither the manifest nor the service worker.
  plugins: [react(), themeBoot(), firstFeedBoot(), inlineEntryCss(), preloadFirstScreen(), precompress(), process.env.VITEST ? null : pwa()],
  server: { proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' } },
  build: {
    assetsDir: BUILD_ASSETS_FOLDER,
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Few files rather than many small ones: a phone on a slow network pays a round trip per
        // file, six at a time, which cost a cold start more than the bytes do. What the entry needs
        // is one file; what two or more screens share is another (it stays cached from screen to
        // screen); each screen keeps its own, and libraries loaded on demand (the lightbox,
        // WebAuthn) stay apart.
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'] },
            { name: 'shared', minShareCount: 2 },
          ],
        },
      },
    },
  },
});
