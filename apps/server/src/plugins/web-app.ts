import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Pages another site may show in a frame (shared views, public reports and
 * the chat of an agent, which courses embed); every other page refuses.
 */
const FRAMEABLE_PAGE = /^\/(?:shared|public-reports|chat)\//;

/** The chat bubble course pages load with a plain <script> tag from their own origin. */
const CROSS_ORIGIN_SCRIPT = '/chat-bubble.js';

/**
 * Lets the frameable pages be embedded anywhere: drops helmet's
 * X-Frame-Options and opens the CSP's frame-ancestors for them only. The
 * chat bubble script is a cross-origin resource (helmet's default
 * Cross-Origin-Resource-Policy would make browsers refuse it).
 */
export function allowFramingOfSharedPages(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const path = request.url.split('?')[0] ?? '';
    if (path === CROSS_ORIGIN_SCRIPT) {
      reply.header('cross-origin-resource-policy', 'cross-origin');
      reply.header('cache-control', 'public, max-age=300, stale-while-revalidate=3600');
      return payload;
    }
    if (!FRAMEABLE_PAGE.test(path)) return payload;
    reply.removeHeader('x-frame-options');
    const policy = reply.getHeader('content-security-policy');
    if (typeof policy === 'string') {
      reply.header('content-security-policy', policy.replace(/frame-ancestors [^;]*/, 'frame-ancestors *'));
    }
    return payload;
  });
}

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
  allowFramingOfSharedPages(app);
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
