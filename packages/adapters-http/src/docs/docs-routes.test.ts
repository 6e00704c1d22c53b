import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInMemoryOutbox, openPostAccess, ownerPostAccess } from '@inkwell/domain';
import { describe, expect, it } from 'vitest';
import { DOCS_CONTENT_SECURITY_POLICY } from './docs-page.js';
import { testHttpApp } from '../test-support/test-app.js';
import { apiRoutes } from '../routes/api-routes.js';
import { createOpenApiDocument } from '../openapi/document.js';

function app(apiDocs?: boolean) {
  return testHttpApp(apiDocs === undefined ? {} : { apiDocs });
}

const installed = (file: string) => readFileSync(createRequire(import.meta.url).resolve(`swagger-ui-dist/${file}`));
const DOCS_PATHS = ['/openapi.json', '/docs', '/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/swagger-initializer.js'];

describe('GET /openapi.json and GET /docs', () => {
  it('serve the document as JSON', async () => {
    const res = await app().request('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toStrictEqual(JSON.parse(JSON.stringify(createOpenApiDocument(apiRoutes))));
  });

  it("serve the document of the app's posts access mode", async () => {
    const res = await testHttpApp({ postAccess: ownerPostAccess }).request('/openapi.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toStrictEqual(JSON.parse(JSON.stringify(createOpenApiDocument(apiRoutes, { postAccess: ownerPostAccess }))));
  });

  it('serve the document with the mail operations only when mail is on', async () => {
    const paths = async (app: ReturnType<typeof testHttpApp>) => Object.keys(((await (await app.request('/openapi.json')).json()) as { paths: object }).paths);
    const outbox = createInMemoryOutbox();
    expect(await paths(testHttpApp({ outbox }))).toEqual(Object.keys(createOpenApiDocument(apiRoutes, { postAccess: openPostAccess, outbox }).paths));
    expect(await paths(testHttpApp({ outbox }))).toContain('/auth/password-reset');
    expect(await paths(testHttpApp())).not.toContain('/auth/password-reset');
  });

  it('serve the page with its own Content-Security-Policy, loading only its own files', async () => {
    const docs = app();
    const res = await docs.request('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CONTENT_SECURITY_POLICY);
    const html = await res.text();
    expect(html).not.toMatch(/https?:|\/\/[a-z]/i);
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] as string);
    expect(references.sort()).toEqual(['data:,', 'docs/swagger-initializer.js', 'docs/swagger-ui-bundle.js', 'docs/swagger-ui.css']);
    for (const reference of references.filter((ref) => !ref.startsWith('data:'))) {
      expect((await docs.request(new URL(reference, 'http://localhost/docs').pathname)).status).toBe(200);
    }
  });

  it("serve Swagger UI's files byte for byte from the installed swagger-ui-dist", async () => {
    const docs = app();
    for (const [file, type] of [
      ['swagger-ui-bundle.js', /^text\/javascript/],
      ['swagger-ui.css', /^text\/css/],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const res = await docs.request(`/docs/${file}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toMatch(type);
        expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
        expect(Buffer.from(await res.arrayBuffer()).equals(installed(file))).toBe(true);
      }
    }
    const initializer = await (await docs.request('/docs/swagger-initializer.js')).text();
    expect(initializer).toContain("new URL('openapi.json', document.baseURI)");
    expect(initializer).toContain('validatorUrl: null');
  });

  it('keep the strict policy on the JSON API itself', async () => {
    const res = await app().request('/posts');
    expect(res.headers.get('content-security-policy')).not.toBe(DOCS_CONTENT_SECURITY_POLICY);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('are gone with apiDocs off (API_DOCS=off): 404 Not found like any unknown path', async () => {
    const off = app(false);
    for (const path of DOCS_PATHS) {
      const res = await off.request(path);
      expect({ path, status: res.status, body: await res.json() }).toStrictEqual({ path, status: 404, body: { error: 'Not found' } });
    }
    expect((await off.request('/posts')).status).toBe(200);
    for (const path of DOCS_PATHS) expect((await app(true).request(path)).status).toBe(200);
  });
});
