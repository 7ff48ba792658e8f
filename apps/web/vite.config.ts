import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

import { defineConfig, type ProxyOptions } from 'vite';

/**
 * In development Vite serves the app and hands everything the Fastify server
 * owns (JSON API, API reference, course tracker) to it. SERVER_PORT follows the
 * server's PORT when `npm run dev` starts both.
 */
const serverTarget = `http://127.0.0.1:${process.env.SERVER_PORT ?? '3000'}`;
const serverProxy: Record<string, ProxyOptions> = {
  '/api': { target: serverTarget },
  '/docs': { target: serverTarget },
  '/tracker.js': { target: serverTarget },
};

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    port: Number(process.env.WEB_PORT ?? 5173),
    proxy: serverProxy,
  },
  preview: {
    port: Number(process.env.WEB_PORT ?? 4173),
    proxy: serverProxy,
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Everything under assets/ carries a content hash, so the server can send
    // it with `Cache-Control: public, max-age=31536000, immutable`; files
    // copied from public/ (theme-init.js, favicon.svg) keep their names and
    // must be served with a revalidating cache policy.
    assetsDir: 'assets',
    // dist/.vite/manifest.json maps each source module to its chunk and
    // imports: bench/bundle-size.ts reads it to price every route.
    manifest: true,
    rolldownOptions: {
      output: {
        entryFileNames: 'assets/[name]-[hash].js',
        chunkFileNames: 'assets/[name]-[hash].js',
        assetFileNames: 'assets/[name]-[hash][extname]',
      },
    },
  },
});
