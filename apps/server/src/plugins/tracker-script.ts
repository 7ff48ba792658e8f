import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { defaultTrackerDistDir } from '../lib/paths';

/**
 * Course pages on any host load the script with a plain <script> tag, so it
 * is public, CORS-open and allowed as a cross-origin resource (helmet's
 * default Cross-Origin-Resource-Policy would make browsers refuse it).
 * Its URL carries no version, so caches keep it briefly and then revalidate
 * with the ETag: a new deploy reaches courses within minutes.
 */
export const TRACKER_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=3600';

export const TRACKER_NOT_BUILT_MESSAGE =
  'The course tracker is not built: run `npm run build` (packages/tracker/dist/tracker.js is missing)';

const FILES = {
  '/tracker.js': { name: 'tracker.js', type: 'application/javascript; charset=utf-8' },
  '/tracker.js.map': { name: 'tracker.js.map', type: 'application/json; charset=utf-8' },
} as const;

type CachedFile = { mtimeMs: number; size: number; body: Buffer; etag: string };

/**
 * Serves the built course tracker at `/tracker.js` (and its source map). The
 * file is read when it changes on disk, so rebuilding the tracker while the
 * server runs needs no restart.
 */
export async function registerTrackerScript(
  app: FastifyInstance,
  distDir: string = defaultTrackerDistDir,
): Promise<void> {
  const cache = new Map<string, CachedFile>();

  const load = async (name: string): Promise<CachedFile | null> => {
    const path = join(distDir, name);
    try {
      const info = await stat(path);
      const cached = cache.get(path);
      if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached;
      const body = await readFile(path);
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      const file = { mtimeMs: info.mtimeMs, size: info.size, body, etag };
      cache.set(path, file);
      return file;
    } catch {
      return null;
    }
  };

  for (const [url, { name, type }] of Object.entries(FILES)) {
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('access-control-allow-origin', '*').header('cross-origin-resource-policy', 'cross-origin');
      const file = await load(name);
      if (!file) {
        return reply
          .status(404)
          .header('cache-control', 'no-store')
          .send({ error: TRACKER_NOT_BUILT_MESSAGE, code: 'NOT_FOUND' });
      }
      reply.header('cache-control', TRACKER_CACHE_CONTROL).header('etag', file.etag);
      if (matchesEtag(request.headers['if-none-match'], file.etag)) return reply.status(304).send();
      return reply.type(type).send(file.body);
    };
    app.get(url, { schema: { hide: true } }, handler);
  }
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === etag || tag === '*');
}
