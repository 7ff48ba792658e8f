import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The server package's root folder. Found by walking up from this module so
 * it is the same whether the code runs from `src/` (tsx, vitest) or from the
 * bundled `dist/main.js`.
 */
export const serverPackageDir: string = findUp(dirname(fileURLToPath(import.meta.url)), (dir) =>
  existsSync(join(dir, 'drizzle', 'meta', '_journal.json')),
);

export const migrationsDir = join(serverPackageDir, 'drizzle');

export const defaultWebDistDir = resolve(serverPackageDir, '..', 'web', 'dist');

export const defaultTrackerDistDir = resolve(serverPackageDir, '..', '..', 'packages', 'tracker', 'dist');

function findUp(start: string, isTarget: (dir: string) => boolean): string {
  let dir = start;
  for (;;) {
    if (isTarget(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`Could not find the server package (drizzle/meta/_journal.json) above ${start}`);
    }
    dir = parent;
  }
}
