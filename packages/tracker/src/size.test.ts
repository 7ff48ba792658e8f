// @vitest-environment node
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

import { TRACKER_BUILD_OPTIONS, TRACKER_GZIP_BUDGET } from '../build-options.mjs';

async function gzipSize(bytes: Uint8Array): Promise<number> {
  const stream = new Blob([bytes.slice()]).stream().pipeThrough(new CompressionStream('gzip'));
  return (await new Response(stream).arrayBuffer()).byteLength;
}

describe('tracker.js size', () => {
  it('stays within 6 KB gzip, built exactly as build.mjs builds it', async () => {
    const result = await build({
      ...TRACKER_BUILD_OPTIONS,
      entryPoints: [decodeURIComponent(new URL('browser.ts', import.meta.url).pathname)],
      write: false,
    });
    const code = result.outputFiles[0]!.contents;
    const size = await gzipSize(code);
    expect(TRACKER_GZIP_BUDGET).toBe(6144);
    expect(size).toBeGreaterThan(1000); // a real bundle, not an empty file
    expect(size).toBeLessThanOrEqual(TRACKER_GZIP_BUDGET);
    // No zod (or any other runtime library) slipped into the bundle.
    expect(new TextDecoder().decode(code)).not.toMatch(/ZodError|zod/i);
  });
});
