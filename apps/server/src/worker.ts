// A worker process without the HTTP server (`npm run worker`): for
// PostgreSQL deployments that fold rollups (and, later, run jobs) on more
// machines than the web servers. It never migrates: a server does.
import { ConfigError, loadConfig } from './config';
import { createDatabase } from './db/client';
import { startWorkers } from './jobs/workers';
import { createLogger } from './lib/logger';

let config;
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
if (config.database.kind !== 'postgres') {
  logger.fatal(
    'npm run worker needs DATABASE_URL: with the embedded database the server runs its own workers',
  );
  process.exit(1);
}
const database = await createDatabase({
  kind: 'postgres',
  url: config.database.url,
  maxConnections: Math.min(4, config.database.poolSize),
});
const workers = await startWorkers(database, logger);
let stopping = false;
const stop = async (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'worker stopping');
  await workers.stop();
  await database.close();
  process.exit(0);
};
process.once('SIGTERM', (signal) => void stop(signal));
process.once('SIGINT', (signal) => void stop(signal));
