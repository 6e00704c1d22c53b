// The typed client entry point, `@inkwell/adapters-http/client`: types only from the server side,
// so a client bundles hono's small `hc` and nothing of the server, the domain or valibot.
import { hc, type ClientRequestOptions } from 'hono/client';
import type { AppType } from './http-app.js';

export type { AppType } from './http-app.js';
export type { Account, Pagination, Post, PostPage, PublicSession, PublicUser, SignedIn, ValidationIssue } from '@inkwell/domain';

/**
 * The API as the typed client sees it: `AppType`, whose every route carries the request body
 * and query its declaration types from the domain's schemas (routes/route-table.ts).
 */
export type InkwellApi = AppType;

/** A typed client for the inkwell server at `baseUrl` (`hc` from `hono/client` over `InkwellApi`). */
export function createInkwellClient(baseUrl: string, options?: ClientRequestOptions) {
  return hc<InkwellApi>(baseUrl, options);
}

/** The client `createInkwellClient` returns. */
export type InkwellClient = ReturnType<typeof createInkwellClient>;

/**
 * The `ETag` of an answer that carries one post (`GET`, `PATCH` 200, `POST` 201, and a 412): the
 * post's version, to send back as `If-Match` (change or delete it only as seen) or `If-None-Match`
 * (read it only if it changed). Null on any other answer.
 */
export function etagOf(response: { readonly headers: Headers }): string | null {
  return response.headers.get('ETag');
}
