import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

const THEME = '#4f46e5';

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

export default defineConfig({
  // The test runner extends this file; it needs neither the manifest nor the service worker.
  plugins: [react(), process.env.VITEST ? null : pwa()],
  server: { proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' } },
  build: { sourcemap: true },
});
