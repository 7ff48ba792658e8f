// Builds dist/tracker.js: one minified IIFE that a course page loads with a
// plain <script> tag (no module loader on Storyline's player pages).
import { build } from 'esbuild';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';

await build({
  entryPoints: ['src/browser.ts'],
  outfile: 'dist/tracker.js',
  bundle: true,
  format: 'iife',
  target: ['es2018'],
  minify: true,
  sourcemap: true,
  logLevel: 'warning',
});
const size = gzipSync(readFileSync('dist/tracker.js')).length;
console.log(`tracker: built dist/tracker.js (${size} bytes gzip)`);
