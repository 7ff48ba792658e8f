import { z } from 'zod';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID in its string form (any variant or version, any case). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/**
 * A UUID the API accepts (a path parameter, a filter, an item of a body), in
 * its canonical lower-case form. PostgreSQL compares `uuid` values without
 * regard to case but JavaScript compares strings exactly, so an id that
 * arrived upper-case could match a row in SQL and miss it in code (a write
 * followed by a 404). Every id is lower-cased here, once, before a handler
 * sees it. `message` is the answer to a malformed id (often the resource's
 * "not found").
 */
export function uuidSchema(message: string) {
  return z.uuid({ error: message }).overwrite((value) => value.toLowerCase());
}
