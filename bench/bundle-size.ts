/**
 * Prices the JavaScript a browser downloads for a route, from the production
 * build of the web app (`npm run build` first). Reads Vite's manifest
 * (apps/web/dist/.vite/manifest.json): a route costs the entry chunk and its
 * static imports plus the route module's chunk and its static imports, each
 * file counted once, gzip level 9. Exits 1 when a route is over its budget.
 *
 *   npm run bundle -w bench
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

type ManifestChunk = {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
type Manifest = Record<string, ManifestChunk>;

const distDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'web', 'dist');

/** Budgets of issue 4, in KiB of gzip. */
const routes = [
  { name: 'public home (/)', module: 'src/app/routes/home.tsx', budgetKb: 150 },
  { name: 'signed-in dashboard (/dashboard)', module: 'src/app/routes/app/dashboard.tsx', budgetKb: 250 },
  { name: 'pricing (/pricing)', module: 'src/app/routes/public/pricing.tsx', budgetKb: 150 },
  { name: 'feature screen (/courses)', module: 'src/app/routes/app/feature-screen.tsx', budgetKb: 250 },
] as const;

function load(): Manifest {
  try {
    return JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    console.error('bundle-size: apps/web/dist/.vite/manifest.json is missing; run `npm run build` first.');
    process.exit(1);
  }
}

function collect(manifest: Manifest, key: string, files: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) collect(manifest, imported, files);
}

const gzipCache = new Map<string, { raw: number; gzip: number }>();
function sizeOf(file: string): { raw: number; gzip: number } {
  let size = gzipCache.get(file);
  if (!size) {
    const content = readFileSync(join(distDir, file));
    size = { raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
    gzipCache.set(file, size);
  }
  return size;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

const manifest = load();
const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entryKey) throw new Error('bundle-size: the manifest has no entry chunk');

let isOverBudget = false;
console.log('JavaScript per route (gzip, KiB), from apps/web/dist');
for (const route of routes) {
  const files = new Set<string>();
  collect(manifest, entryKey, files);
  collect(manifest, route.module, files);
  const jsFiles = [...files].filter((file) => file.endsWith('.js'));
  const total = jsFiles.reduce(
    (sum, file) => ({ raw: sum.raw + sizeOf(file).raw, gzip: sum.gzip + sizeOf(file).gzip }),
    {
      raw: 0,
      gzip: 0,
    },
  );
  const isOver = total.gzip > route.budgetKb * 1024;
  isOverBudget ||= isOver;
  console.log(
    `${isOver ? 'OVER' : 'ok  '}  ${route.name.padEnd(36)} ${kb(total.gzip).padStart(7)} KiB gzip  (${kb(total.raw)} KiB raw, ${jsFiles.length} files; budget ${route.budgetKb} KiB)`,
  );
}
process.exit(isOverBudget ? 1 : 0);
