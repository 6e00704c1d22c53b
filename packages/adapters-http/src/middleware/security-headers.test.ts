import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../routes/api-routes.js';
import { SECURITY_HEADERS } from '../response/security-headers.js';
import { testHttpApp } from '../test-support/test-app.js';

/** The names and values of SECURITY_HEADERS that `response` lacks or carries otherwise. */
function missing(response: Response): string[] {
  return Object.entries(SECURITY_HEADERS)
    .filter(([name, value]) => response.headers.get(name) !== value && !(name === 'Content-Security-Policy' && response.headers.has(name)))
    .map(([name]) => name);
}

describe('the security headers on every answer of the API', () => {
  it('are on every route’s answers: without credentials, with a bad body, with a bad JSON body, and on HEAD', async () => {
    const app = testHttpApp();
    const path = (template: string) => template.replace(/:[A-Za-z]+/g, 'unknown-id');
    const seen: string[] = [];
    for (const route of apiRoutes) {
      const method = route.method.toUpperCase();
      const url = `http://localhost${path(route.path)}`;
      const tries: RequestInit[] = method === 'GET' || method === 'DELETE' ? [{ method }] : [
        { method },
        { method, headers: { 'content-type': 'application/json' }, body: '{}' },
        { method, headers: { 'content-type': 'application/json' }, body: '{' },
      ];
      if (method === 'GET') tries.push({ method: 'HEAD' });
      for (const init of tries) {
        const response = await app.request(url, init);
        seen.push(`${init.method} ${route.path} ${response.status}`);
        expect({ route: `${init.method} ${route.path}`, missing: missing(response) }).toStrictEqual({ route: `${init.method} ${route.path}`, missing: [] });
      }
    }
    // Every route was reached, and answers of many kinds were checked.
    expect(new Set(seen.map((line) => line.split(' ').slice(0, 2).join(' '))).size).toBeGreaterThanOrEqual(apiRoutes.length);
    expect(new Set(seen.map((line) => line.split(' ')[2]?.[0])).size).toBeGreaterThanOrEqual(2);
  });

  it('are on the routing failures and the unexpected errors', async () => {
    const failing = testHttpApp({
      storeReachable: () => {
        throw new Error('boom');
      },
    });
    for (const [app, path, init] of [
      [testHttpApp(), '/nope', {}],
      [testHttpApp(), '/posts', { method: 'PUT' }],
      [testHttpApp(), '/posts', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }],
      [failing, '/health', {}],
    ] as const) {
      const response = await app.request(`http://localhost${path}`, init);
      expect({ path, status: response.status, missing: missing(response) }).toMatchObject({ path, missing: [] });
    }
  });
});
