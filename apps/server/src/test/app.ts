import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig, type AppConfig } from '../config';
import type { DatabaseConnection } from '../db/client';
import { createTestDatabase } from './database';

export type TestApp = {
  app: FastifyInstance;
  database: DatabaseConnection;
  close: () => Promise<void>;
};

/**
 * The real application on a clean, migrated database of its own. Pass
 * `configOverrides` to change settings (e.g. a web dist folder).
 */
export async function createTestApp(configOverrides: Partial<AppConfig> = {}): Promise<TestApp> {
  const database = await createTestDatabase();
  const config: AppConfig = {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_DIST_DIR: '/nonexistent-web-dist' }),
    // Test files sign many people up from one address; the limit has its own test.
    signupLimitPerHour: 0,
    ...configOverrides,
  };
  const app = await buildApp({ config, database, logger: false });
  return {
    app,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
