// The typed client entry point, `@inkwell/adapters-http/client`: types only from the server side,
// so a client bundles hono's small `hc` and nothing of the server, the domain or valibot.
import type {
  ChangePasswordSchema,
  CreateOwnPostSchema,
  CreatePostSchema,
  DeleteAccountSchema,
  ListPostsQuerySchema,
  LogInSchema,
  LogOutSchema,
  SignUpSchema,
  UpdateAccountSchema,
  UpdatePostSchema,
} from '@inkwell/domain';
import type { Hono } from 'hono';
import { hc, type ClientRequestOptions } from 'hono/client';
import type { BlankEnv, ExtractSchema } from 'hono/types';
import type * as v from 'valibot';
import type { AppType } from './http-app.js';

export type { AppType } from './http-app.js';
export type { Pagination, Post, PostPage, PublicSession, PublicUser, SignedIn, ValidationIssue } from '@inkwell/domain';

/**
 * What each endpoint takes, from the very schemas the domain validates with. The routes read
 * bodies themselves (the domain validates, not a hono validator), so `AppType` alone knows the
 * responses but not the inputs; this fills them in.
 */
interface Inputs {
  '/auth/signup': { $post: { json: v.InferInput<typeof SignUpSchema> } };
  '/auth/login': { $post: { json: v.InferInput<typeof LogInSchema> } };
  '/auth/logout': { $post: { json?: v.InferInput<typeof LogOutSchema> } };
  '/auth/password': { $post: { json: v.InferInput<typeof ChangePasswordSchema> } };
  '/me': { $patch: { json: v.InferInput<typeof UpdateAccountSchema> }; $delete: { json: v.InferInput<typeof DeleteAccountSchema> } };
  '/posts': {
    $get: { query: v.InferInput<typeof ListPostsQuerySchema> };
    // Under owner access `authorId` may be left out; the server says when it must be sent.
    $post: { json: v.InferInput<typeof CreatePostSchema> | v.InferInput<typeof CreateOwnPostSchema> };
  };
  '/posts/:id': { $patch: { json: v.InferInput<typeof UpdatePostSchema> } };
  '/me/posts': { $get: { query: v.InferInput<typeof ListPostsQuerySchema> } };
}

/** Adds `Extra` to the input of every endpoint in `E` (a union when a route answers several statuses). */
type WithInput<E, Extra> = E extends { input: infer I } ? Omit<E, 'input'> & { input: I & Extra } : E;

type WithInputs<S> = {
  [P in keyof S]: {
    [M in keyof S[P]]: P extends keyof Inputs ? (M extends keyof Inputs[P] ? WithInput<S[P][M], Inputs[P][M]> : S[P][M]) : S[P][M];
  };
};

/** The API as the typed client sees it: `AppType`'s routes and responses, with typed bodies and queries. */
export type InkwellApi = Hono<BlankEnv, WithInputs<ExtractSchema<AppType>>, '/'>;

/** A typed client for the inkwell server at `baseUrl` (`hc` from `hono/client` over `InkwellApi`). */
export function createInkwellClient(baseUrl: string, options?: ClientRequestOptions) {
  return hc<InkwellApi>(baseUrl, options);
}

/** The client `createInkwellClient` returns. */
export type InkwellClient = ReturnType<typeof createInkwellClient>;
