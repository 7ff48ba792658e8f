import type { Logger } from 'pino';
import type { DatabaseConnection } from '../db/client';
import type { JobRunner } from './job-runner';
import { createAppJobRunner } from './registry';
import { startRollupFolder, type RollupFolder } from './rollup-folder';

export type Workers = { jobs: JobRunner; stop: () => Promise<void> };

/**
 * The background work of one process: the job queue's workers and
 * schedules, and on PostgreSQL the rollup folder (PGlite counts rollups as
 * facts are written, see migration 0009, so it has nothing to fold). Any
 * number of processes may run these: jobs are claimed with SKIP LOCKED and
 * the folder holds an advisory lock per fold, so nothing runs twice at once.
 */
export async function startWorkers(database: DatabaseConnection, logger: Logger): Promise<Workers> {
  const jobs = createAppJobRunner(database, {
    workers: true,
    onError: (error) => logger.error({ err: error }, 'job queue error'),
  });
  await jobs.start();
  let folder: RollupFolder | null = null;
  if (database.kind === 'postgres') {
    folder = startRollupFolder(database.db, {
      onError: (error) => logger.error({ err: error }, 'rollup fold failed; retrying at the next poll'),
    });
  }
  logger.info({ rollupFolder: folder !== null }, 'workers started');
  return {
    jobs,
    stop: async () => {
      await folder?.stop();
      await jobs.stop();
    },
  };
}

/**
 * The job queue without workers (EMBEDDED_WORKERS=false): this process
 * publishes domain events and queues jobs; `npm run worker` processes run them.
 */
export async function startQueueOnly(database: DatabaseConnection, logger: Logger): Promise<Workers> {
  const jobs = createAppJobRunner(database, {
    workers: false,
    onError: (error) => logger.error({ err: error }, 'job queue error'),
  });
  await jobs.start();
  logger.info('workers off in this process (EMBEDDED_WORKERS=false): run npm run worker');
  return { jobs, stop: () => jobs.stop() };
}
