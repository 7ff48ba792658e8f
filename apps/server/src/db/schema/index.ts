// Entry point of the Drizzle schema: one module per domain, re-exported here
// for drizzle-kit and for the typed `db.query` API.
export * from './auth';
export * from './organizations';
export * from './api-keys';
export * from './courses';
export * from './learners';
export * from './variables';
export * from './questions';
export * from './rollups';
export * from './events';
export * from './reports';
export * from './shared-views';
export * from './ai-summaries';
export * from './pipelines';
export * from './chatbots';
export * from './activity';
export * from './analytics';
export * from './billing';
export * from './xapi';
export * from './relations';
export * from './system';
