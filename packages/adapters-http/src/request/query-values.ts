import type { Context } from 'hono';

/**
 * The query string as the domain validates it: one string per name, or an array of strings
 * when the name was repeated (`page=1&page=2`), so a repeated value fails validation
 * instead of one of them being picked silently.
 */
export function queryValues(c: Context): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = Object.create(null);
  for (const [name, all] of Object.entries(c.req.queries())) values[name] = all.length === 1 ? (all[0] as string) : all;
  return values;
}
