import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildAppOptions } from '../app';
import { loadConfig, type AppConfig } from '../config';
import type { DatabaseConnection } from '../db/client';
import { createTestDatabase } from './database';
import type { JobRunner } from '../jobs/job-runner';
import { createAppJobRunner } from '../jobs/registry';

export type TestApp = {
  app: FastifyInstance;
  database: DatabaseConnection;
  jobs: JobRunner;
  close: () => Promise<void>;
};

/**
 * The real application on a clean, migrated database of its own. Pass
 * `configOverrides` to change settings (e.g. a web dist folder).
 */
export async function createTestApp(
  configOverrides: Partial<AppConfig> = {},
  appOptions: Pick<BuildAppOptions, 'chat' | 'billingProvider'> = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  const config: AppConfig = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST_DIR: '/nonexistent-web-dist' }),
    // Test files sign many people up from one address; the limit has its own test.
    signupLimitPerHour: 0,
    // A report computed slowly on a loaded machine must not be served as it
    // was before a test's change; the tests of that rule turn it on.
    reportRecent: { maxAgeMs: 0, minCostMs: 0, minLearners: 0 },
    ...configOverrides,
  };
  // The real queue, without workers: what is published is stored, and
  // tests that need jobs to run start a runner with workers of their own.
  const jobs = createAppJobRunner(database, { workers: false });
  await jobs.start();
  const app = await buildApp({ config, database, logger: false, jobs, ...appOptions });
  return {
    app,
    database,
    jobs,
    close: async () => {
      await app.close();
      await jobs.stop();
      await database.close();
    },
  };
}
