import { Hono } from 'hono';
import type { DocumentedServer } from '../openapi/route-docs.js';
import { apiRoutes } from '../routes/api-routes.js';
import {
  DOCS_CONTENT_SECURITY_POLICY,
  DOCS_HTML,
  DOCS_INITIALIZER_JS,
  swaggerUiAsset,
  type SwaggerUiAsset,
} from './docs-page.js';

const ASSET_TYPES: Record<SwaggerUiAsset, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/** Swagger UI's files change only with the installed package: let browsers keep them for a day. */
const ASSET_CACHE_CONTROL = 'public, max-age=86400';

/**
 * `GET /openapi.json` and the Swagger UI page at `GET /docs`, whose script and styles are served
 * from the installed `swagger-ui-dist`, never a CDN, so the page works with no internet.
 * The document describes the server's access mode, whether mail is on and whether writes must be
 * conditional, and is built once, on first request.
 */
export function docsRoutes(server: DocumentedServer) {
  let documentText: Promise<string> | undefined;
  const app = new Hono()
    .get('/openapi.json', async (c) => {
      // Loaded on first request, so the converter costs nothing at start or when nobody asks.
      documentText ??= import('../openapi/document.js').then(({ createOpenApiDocument }) =>
        JSON.stringify(createOpenApiDocument(apiRoutes, { postAccess: server.postAccess, outbox: server.outbox, safeWriteRules: server.safeWriteRules })),
      );
      return c.body(await documentText, 200, { 'Content-Type': 'application/json' });
    })
    // The page's own Content-Security-Policy, kept by securityHeaders() (it never overwrites a
    // header a handler set); the JSON API's strict policy would stop Swagger UI from running.
    .get('/docs', (c) => c.html(DOCS_HTML, 200, { 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY }))
    .get('/docs/swagger-initializer.js', (c) =>
      c.body(DOCS_INITIALIZER_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }),
    );
  for (const name of Object.keys(ASSET_TYPES) as SwaggerUiAsset[]) {
    app.get(`/docs/${name}`, async (c) =>
      c.body(await swaggerUiAsset(name), 200, { 'Content-Type': ASSET_TYPES[name], 'Cache-Control': ASSET_CACHE_CONTROL }),
    );
  }
  return app;
}
