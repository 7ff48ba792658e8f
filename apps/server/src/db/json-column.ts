/**
 * A `json` / `jsonb` column of a raw query: node-postgres and PGlite both
 * parse it, but a value cast to text on the way (or a driver configured
 * without the parser) arrives as a string. Null stays the fallback.
 */
export function jsonColumn<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}
