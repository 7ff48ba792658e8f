/**
 * Prices the JavaScript a browser downloads for a route, from the production
 * build of the web app (`npm run build` first). Reads Vite's manifest
 * (apps/web/dist/.vite/manifest.json): a route costs the entry chunk and its
 * static imports plus the route module's chunk and its static imports, each
 * file counted once, gzip level 9. Exits 1 when a route is over its budget,
 * or when a public page's JavaScript carries zod (the contracts package's
 * schemas belong to the pages and loaders that use them, never to a first visit).
 *
 *   npm run bundle -w bench                      # apps/web/dist
 *   npx tsx bench/bundle-size.ts /tmp/web-dist   # another build (vite build --outDir …)
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
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

const defaultDistDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'web', 'dist');
// A relative folder is the caller's: npm runs workspace scripts in bench/ but keeps INIT_CWD.
const distArg = process.argv[2];
const distDir = distArg ? resolve(process.env.INIT_CWD ?? process.cwd(), distArg) : defaultDistDir;

/**
 * Budgets of issue 4, in KiB of gzip. A route is its page's module and, for
 * a data page, the `prefetch.ts` its loader loads beside it (a build without
 * one, from before loaders moved there, counts the page alone).
 */
const routes = [
  { name: 'public home (/)', modules: ['src/app/routes/home.tsx'], budgetKb: 150, isPublic: true },
  {
    name: 'pricing (/pricing)',
    modules: ['src/app/routes/public/pricing.tsx'],
    budgetKb: 150,
    isPublic: true,
  },
  {
    name: 'signed-in dashboard (/dashboard)',
    modules: ['src/features/dashboard/components/dashboard-page.tsx', 'src/features/dashboard/prefetch.ts'],
    budgetKb: 250,
    isPublic: false,
  },
  {
    name: 'course list (/courses)',
    modules: ['src/features/courses/components/courses-page.tsx', 'src/features/courses/prefetch.ts'],
    budgetKb: 250,
    isPublic: false,
  },
  {
    name: 'course tab (/course/:id/learners)',
    modules: [
      'src/app/routes/app/course-layout.tsx',
      'src/features/courses/components/course-learners-page.tsx',
      'src/features/courses/prefetch.ts',
    ],
    budgetKb: 250,
    isPublic: false,
  },
  {
    name: 'placeholder screen (/subscribe)',
    modules: ['src/app/routes/app/feature-screen.tsx'],
    budgetKb: 250,
    isPublic: false,
  },
] as const;

/**
 * zod's core registers every schema class under a `$Zod…` name that survives
 * minification: a chunk holding it holds zod, which only arrives with
 * `@courselens/contracts` (or a form's resolver).
 */
const ZOD_MARKER = /[`'"]\$ZodType[`'"]/;

function load(): Manifest {
  try {
    return JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    console.error(
      `bundle-size: ${join(distDir, '.vite', 'manifest.json')} is missing; run \`npm run build\` first.`,
    );
    process.exit(1);
  }
}

function collect(manifest: Manifest, key: string, files: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) collect(manifest, imported, files);
}

type FileFacts = { raw: number; gzip: number; hasZod: boolean };
const factsCache = new Map<string, FileFacts>();
function factsOf(file: string): FileFacts {
  let facts = factsCache.get(file);
  if (!facts) {
    const content = readFileSync(join(distDir, file));
    facts = {
      raw: content.length,
      gzip: gzipSync(content, { level: 9 }).length,
      hasZod: ZOD_MARKER.test(content.toString('utf8')),
    };
    factsCache.set(file, facts);
  }
  return facts;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

const manifest = load();
const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entryKey) throw new Error('bundle-size: the manifest has no entry chunk');

let isOverBudget = false;
let hasZodOnPublicPage = false;
console.log(`JavaScript per route (gzip, KiB), from ${distDir}`);
for (const route of routes) {
  const files = new Set<string>();
  collect(manifest, entryKey, files);
  for (const module of route.modules) collect(manifest, module, files);
  const jsFiles = [...files].filter((file) => file.endsWith('.js'));
  const total = jsFiles.reduce(
    (sum, file) => ({ raw: sum.raw + factsOf(file).raw, gzip: sum.gzip + factsOf(file).gzip }),
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
  const zodFiles = route.isPublic ? jsFiles.filter((file) => factsOf(file).hasZod) : [];
  if (zodFiles.length > 0) {
    hasZodOnPublicPage = true;
    console.log(`ZOD   ${route.name} loads zod (the contracts' schemas) in ${zodFiles.join(', ')}`);
  }
}
process.exit(isOverBudget || hasZodOnPublicPage ? 1 : 0);
