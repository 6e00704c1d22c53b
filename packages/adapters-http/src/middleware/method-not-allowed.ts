import type { Hono } from 'hono';
import { TrieRouter } from 'hono/router/trie-router';

/**
 * The methods `app` answers on `path` (GET implies HEAD), in the order its routes were added;
 * empty when no route has that path. Built on first use, once every route is registered.
 *
 * Why not hono's methodNotAllowed middleware (same rules, same Allow list): a middleware runs
 * around every request to look at the rare 404 afterwards, which would cost every request an
 * async layer. The app's notFound handler, where hono lands exactly the requests no route
 * took, asks this instead.
 */
export function allowedMethods(app: Hono): (path: string) => string[] {
  let router: TrieRouter<string[]> | undefined;
  return (path) => {
    if (!router) {
      const byPath = new Map<string, Set<string>>();
      for (const route of app.routes) {
        if (route.method === 'ALL' || route.method === 'HEAD') continue;
        const methods = byPath.get(route.path) ?? new Set<string>();
        methods.add(route.method);
        if (route.method === 'GET') methods.add('HEAD');
        byPath.set(route.path, methods);
      }
      router = new TrieRouter<string[]>();
      for (const [routePath, methods] of byPath) router.add('ALL', routePath, [...methods]);
    }
    const allowed = new Set<string>();
    for (const [methods] of router.match('ALL', path)[0]) for (const method of methods) allowed.add(method);
    return [...allowed];
  };
}
