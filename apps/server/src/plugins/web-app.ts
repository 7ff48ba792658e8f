import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built React app: hashed files under /assets/ are cached for a
 * year, everything else (index.html above all) is revalidated on every load
 * so a deploy is picked up at once. Returns whether the app was found, so
 * the not-found handler knows whether it can fall back to index.html.
 */
export async function registerWebApp(app: FastifyInstance, webDistDir: string): Promise<boolean> {
  if (!existsSync(join(webDistDir, 'index.html'))) {
    app.log.warn({ webDistDir }, 'web app build not found; serving the API only (run npm run build)');
    return false;
  }
  await app.register(fastifyStatic, {
    root: webDistDir,
    prefix: '/',
    // Routes for the files present at start-up instead of a catch-all, so
    // unknown paths reach the not-found handler and its history fallback.
    wildcard: false,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      const isHashedAsset = filePath.startsWith(join(webDistDir, 'assets'));
      reply.header('cache-control', isHashedAsset ? IMMUTABLE : 'no-cache');
    },
  });
  return true;
}
