import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process';

const run = promisify(execFile);

export type PostgresCluster = {
  url: string;
  version: string;
  /** Stops the server and removes its folder; safe to call twice. */
  stop: () => Promise<void>;
};

/** The newest PostgreSQL server binaries Debian installed, if any. */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((entry) => existsSync(join(root, entry, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

/**
 * Starts a throw-away PostgreSQL cluster: initdb in a temporary folder,
 * listening on 127.0.0.1 on a free port, trust authentication. PostgreSQL
 * refuses to run as root, so as root it runs as the `postgres` account.
 * Server settings are the defaults (durable commits), as in production.
 */
export async function startPostgresCluster(bin: string): Promise<PostgresCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'courselens-bench-pg-'));
  const isRoot = userInfo().uid === 0;
  const command = (program: string, args: string[]) =>
    isRoot
      ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args])
      : run(join(bin, program), args);
  chmodSync(dir, 0o755);
  if (isRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const dataDir = join(dir, 'data');
  let isStarted = false;
  let isStopped = false;
  const stop = async () => {
    if (isStopped) return;
    isStopped = true;
    if (isStarted)
      await command('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await command('initdb', ['-D', dataDir, '-U', 'courselens', '--auth=trust', '-E', 'UTF8', '--no-locale']);
    const port = await freePort();
    await command('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir}`,
      'start',
    ]);
    isStarted = true;
    const { stdout } = await run(join(bin, 'postgres'), ['--version']);
    return {
      url: `postgres://courselens@127.0.0.1:${port}/postgres`,
      // "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"
      version: /\(PostgreSQL\) (\S+)/.exec(stdout)?.[1] ?? stdout.trim(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
