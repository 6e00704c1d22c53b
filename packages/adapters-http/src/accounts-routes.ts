import { currentUser, logIn, signUp } from '@inkwell/domain';
import { Hono } from 'hono';
import { bearerToken } from './bearer-token.js';
import type { HttpDeps } from './http-deps.js';
import { readJsonObject } from './json-body.js';
import { jsonResponse } from './json-response.js';
import { requestHeader } from './node-request.js';

/** `POST /auth/signup`, `POST /auth/login` and `GET /me` (spec 4.1). */
export function accountsRoutes(deps: HttpDeps) {
  return new Hono()
    .post('/auth/signup', async (c) =>
      jsonResponse(c, await signUp(deps, await readJsonObject(c, deps.maxBodyBytes), { clientAddress: deps.clientAddress?.(c) }), 201),
    )
    .post('/auth/login', async (c) =>
      jsonResponse(c, await logIn(deps, await readJsonObject(c, deps.maxBodyBytes), { clientAddress: deps.clientAddress?.(c) }), 200),
    )
    .get('/me', async (c) => jsonResponse(c, { user: await currentUser(deps, bearerToken(requestHeader(c, 'authorization'))) }, 200));
}
