// Builds dist/tracker.js: one minified IIFE that a course page loads with a
// plain <script> tag (no module loader on Storyline's player pages), and
// fails when it grows past its size budget (issue 5: at most 6 KB gzip).
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { TRACKER_BUILD_OPTIONS, TRACKER_GZIP_BUDGET } from './build-options.mjs';

const root = dirname(fileURLToPath(import.meta.url));
const outfile = join(root, 'dist', 'tracker.js');

await build({
  ...TRACKER_BUILD_OPTIONS,
  entryPoints: [join(root, 'src', 'browser.ts')],
  outfile,
  sourcemap: true,
  logLevel: 'warning',
});
const size = gzipSync(readFileSync(outfile)).length;
if (size > TRACKER_GZIP_BUDGET) {
  console.error(
    `tracker: dist/tracker.js is ${size} bytes gzip, over the ${TRACKER_GZIP_BUDGET}-byte budget`,
  );
  process.exit(1);
}
console.log(`tracker: built dist/tracker.js (${size} bytes gzip, budget ${TRACKER_GZIP_BUDGET})`);
