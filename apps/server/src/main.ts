import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from './app';
import { ConfigError, loadConfig, type AppConfig } from './config';
import { createDatabase, type DatabaseConnection } from './db/client';
import { runMigrations } from './db/migrate';
import { seedDemoIfEmpty } from './db/demo';
import { lockDataDir, type DataDirLock } from './lib/data-dir-lock';
import { createLogger } from './lib/logger';
import { startQueueOnly, startWorkers, type Workers } from './jobs/workers';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const logger = createLogger(config);
  let dataDirLock: DataDirLock | undefined;
  let database: DatabaseConnection | undefined;
  let app: FastifyInstance | undefined;
  let workers: Workers | undefined;

  try {
    if (config.database.kind === 'pglite') {
      dataDirLock = lockDataDir(config.database.dataDir);
      database = await createDatabase({ kind: 'pglite', dataDir: config.database.dataDir });
    } else {
      database = await createDatabase({
        kind: 'postgres',
        url: config.database.url,
        maxConnections: config.database.poolSize,
      });
    }
    logger.info({ database: database.kind }, 'applying migrations');
    await runMigrations(database);
    if (config.seedDemo) await seedDemoIfEmpty(database, logger);

    // Embedded workers (jobs, schedules, the rollup folder); on PostgreSQL
    // `npm run worker` adds more processes.
    workers = config.embeddedWorkers
      ? await startWorkers(database, logger)
      : await startQueueOnly(database, logger);
    app = await buildApp({ config, database, loggerInstance: logger, jobs: workers.jobs });
    installShutdown({ app, workers, database, dataDirLock, logger, timeoutMs: config.shutdownTimeoutMs });
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    logger.fatal({ err: error }, 'CourseLens failed to start');
    await app?.close().catch(() => undefined);
    await workers?.stop().catch(() => undefined);
    await database?.close().catch(() => undefined);
    dataDirLock?.release();
    // Give the log transport a moment to flush before exiting.
    setTimeout(() => process.exit(1), 100).unref();
    process.exitCode = 1;
  }
}

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish,
 * close the database, exit 0. A shutdown that hangs past the timeout exits 1.
 */
function installShutdown(parts: {
  app: FastifyInstance;
  workers: Workers;
  database: DatabaseConnection;
  dataDirLock: DataDirLock | undefined;
  logger: Logger;
  timeoutMs: number;
}): void {
  let isShuttingDown = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (isShuttingDown) return;
    isShuttingDown = true;
    parts.logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      parts.logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, parts.timeoutMs).unref();
    try {
      await parts.app.close();
      await parts.workers.stop();
      await parts.database.close();
      parts.dataDirLock?.release();
      parts.logger.info('shutdown complete');
      process.exit(0);
    } catch (error) {
      parts.logger.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.once('SIGTERM', (signal) => void shutdown(signal));
  process.once('SIGINT', (signal) => void shutdown(signal));
}

await main();
