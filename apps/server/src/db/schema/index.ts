// Entry point of the Drizzle schema: one module per domain, re-exported here
// for drizzle-kit and for the typed `db.query` API.
export {};
