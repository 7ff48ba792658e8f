// The contracts package's single entry point: schemas and types shared by
// the server and the web app.
export * from './errors';
export * from './health';
