// The contracts package's single entry point: schemas and types shared by
// the server and the web app.
export * from './errors';
export * from './health';
export * from './subdomain';
export * from './reserved-subdomains';
export * from './auth';
export * from './organizations';
export * from './me';
export * from './team';
export * from './api-keys';
export * from './list';
export * from './ingestion';
export * from './courses';
export * from './learners';
export * from './variables';
export * from './questions';
export * from './dashboard';
export * from './activity';
export * from './plans';
export * from './custom-reports';
export * from './ai-summaries';
export * from './variable-reports';
export * from './question-reports';
export * from './shared-views';
