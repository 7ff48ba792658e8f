// Shared by build.mjs and the size test, so the test measures what ships.

/** 6 KB gzip (issue 5). */
export const TRACKER_GZIP_BUDGET = 6 * 1024;

/** @type {import('esbuild').BuildOptions} */
export const TRACKER_BUILD_OPTIONS = {
  bundle: true,
  format: 'iife',
  target: ['es2018'],
  minify: true,
};
