import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The docs page's own Content-Security-Policy. The JSON API answers with a stricter one that
 * would stop Swagger UI; this page needs same-origin scripts, styles and `fetch` (Try it out),
 * and `data:` images (the icons in Swagger UI's CSS). Swagger UI 5 needs neither `unsafe-eval`
 * nor `unsafe-inline`: the browser test runs the page under exactly this policy and fails on
 * any violation.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The page at `/docs`. Every URL is relative to it, so the page also works behind a proxy
 * that mounts inkwell under a prefix; the icon is inline so the browser asks for no favicon.
 */
export const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>inkwell API reference</title>
    <link rel="icon" href="data:,">
    <link rel="stylesheet" href="docs/swagger-ui.css">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="docs/swagger-ui-bundle.js"></script>
    <script src="docs/swagger-initializer.js"></script>
  </body>
</html>
`;

/**
 * Starts Swagger UI on `/openapi.json`. Served as a file, not inline, so the page's policy can
 * forbid inline script; `validatorUrl: null` keeps Swagger UI from calling its online validator.
 */
export const DOCS_INITIALIZER_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: new URL('openapi.json', document.baseURI).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    displayRequestDuration: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

/** The files of the installed `swagger-ui-dist` that the page loads. */
export type SwaggerUiAsset = 'swagger-ui.css' | 'swagger-ui-bundle.js';

const swaggerUiDir = (() => {
  let dir: string | undefined;
  return () => (dir ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json')));
})();

const cache = new Map<SwaggerUiAsset, Promise<Uint8Array<ArrayBuffer>>>();

/** One of Swagger UI's files, read from the installed package on first use and kept in memory after. */
export function swaggerUiAsset(name: SwaggerUiAsset): Promise<Uint8Array<ArrayBuffer>> {
  let bytes = cache.get(name);
  if (!bytes) {
    bytes = readFile(join(swaggerUiDir(), name)).then((buffer) => Uint8Array.from(buffer));
    // A failed read is not cached, so a transient error does not stick.
    bytes.catch(() => cache.delete(name));
    cache.set(name, bytes);
  }
  return bytes;
}
