import { z } from 'zod';

/**
 * The query and answer shapes every list endpoint shares, so the tables of the
 * web app page, search and sort the same way everywhere.
 */

export const sortOrderSchema = z.enum(['asc', 'desc']);
export type SortOrder = z.infer<typeof sortOrderSchema>;

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

/**
 * `?q=&page=&pageSize=&sort=&order=` for a list sortable by `sortKeys`.
 * Numbers arrive as strings in a query string, hence the coercion.
 */
export function listQuerySchema<const Keys extends readonly [string, ...string[]]>(
  sortKeys: Keys,
  defaults: { sort: Keys[number]; order: SortOrder },
) {
  return z.object({
    q: z.string().trim().max(200, 'Search must be at most 200 characters long').optional(),
    page: z.coerce
      .number({ error: 'Page must be a whole number of 1 or more' })
      .int('Page must be a whole number of 1 or more')
      .min(1, 'Page must be a whole number of 1 or more')
      .max(1_000_000, 'Page must be at most 1000000')
      .default(1),
    pageSize: z.coerce
      .number({ error: `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .int(`Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
      .min(1, `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
      .max(MAX_PAGE_SIZE, `Page size must be a whole number from 1 to ${MAX_PAGE_SIZE}`)
      .default(DEFAULT_PAGE_SIZE),
    sort: z
      .enum(sortKeys as unknown as [Keys[number], ...Keys[number][]], {
        error: `Sort must be one of: ${sortKeys.join(', ')}`,
      })
      .default(defaults.sort),
    order: sortOrderSchema.default(defaults.order),
  });
}

/** The answer of a list endpoint: one page of `items` and the total behind it. */
export function paginatedSchema<Item extends z.ZodType>(item: Item) {
  return z.object({
    items: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    pageSize: z.number().int().positive(),
  });
}

export type Paginated<Item> = { items: Item[]; total: number; page: number; pageSize: number };

/** Boolean query parameters: `true`/`false`/`1`/`0` as a query string sends them. */
export const queryBoolean = z
  .enum(['true', 'false', '1', '0'], { error: 'Expected true or false' })
  .transform((value) => value === 'true' || value === '1');
