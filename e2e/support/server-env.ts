import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const serverEntry = join(repoRoot, 'apps', 'server', 'dist', 'main.js');
export const artifactsDir = join(repoRoot, 'e2e', '.artifacts');

/** Asks the OS for a port nobody listens on (bound then released at once). */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not read the port of a probe server'));
      });
    });
  });
}

export function hasServerBuild(): boolean {
  return existsSync(serverEntry);
}
