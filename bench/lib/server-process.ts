// The built server as a child process, the way a deployment runs it
// (`node apps/server/dist/main.js`), for benchmarks that drive it over HTTP
// on loopback: a free port, waiting for /api/health, stopping it, and reading
// its memory from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const builtServerEntry = fileURLToPath(new URL('../../apps/server/dist/main.js', import.meta.url));
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** Asks the OS for a port nobody listens on, on 127.0.0.1 (bound then released at once). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export type ServerProcess = {
  child: ChildProcess;
  base: string;
  exited: Promise<number | null>;
  /** What the server printed (the last 200 chunks), for error messages. */
  output: () => string;
  /** SIGTERM (a graceful shutdown that closes the database), SIGKILL after `graceMs`. */
  stop: (graceMs?: number) => Promise<void>;
};

/**
 * Starts `apps/server/dist/main.js` (run `npm run build` first) with
 * NODE_ENV=production on 127.0.0.1 and a free port; `env` adds the storage
 * (DATA_DIR or DATABASE_URL) and anything else. Resolves once
 * `GET /api/health` answers 200 (the first start migrates and seeds the demo).
 */
export async function startBuiltServer(
  env: Record<string, string>,
  options: { startTimeoutMs?: number } = {},
): Promise<ServerProcess> {
  if (!existsSync(builtServerEntry)) {
    throw new Error(`${builtServerEntry} is missing: run \`npm run build\` first`);
  }
  const port = await freePort();
  const child = spawn(process.execPath, [builtServerEntry], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  const capture = (chunk: Buffer) => {
    chunks.push(chunk.toString());
    if (chunks.length > 200) chunks.shift();
  };
  child.stdout?.on('data', capture);
  child.stderr?.on('data', capture);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const output = () => chunks.join('');
  const stop = async (graceMs = 15_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(base, child, output, options.startTimeoutMs ?? 300_000);
  } catch (error) {
    await stop(2_000);
    throw error;
  }
  return { child, base, exited, output, stop };
}

async function waitForHealth(
  base: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited before answering /api/health:\n${output()}`);
    }
    try {
      const response = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer /api/health within ${timeoutMs / 1000} s:\n${output()}`);
}

export type ProcessMemory = {
  /** Resident set size now, in bytes (VmRSS). */
  rss: number;
  /** Peak resident set size since the process started, in bytes (VmHWM). */
  peak: number;
};

/** VmRSS and VmHWM of a process from /proc/<pid>/status (Linux); undefined once it has exited. */
export function readProcessMemory(pid: number): ProcessMemory | undefined {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  const rss = kilobytes('VmRSS');
  const peak = kilobytes('VmHWM');
  return Number.isFinite(rss) && Number.isFinite(peak) ? { rss: rss * 1024, peak: peak * 1024 } : undefined;
}
