import { currentUser, logIn, signUp } from '@inkwell/domain';
import { Hono } from 'hono';
import { bearerToken } from './bearer-token.js';
import type { HttpDeps } from './http-deps.js';
import { readJsonObject } from './json-body.js';

/** `POST /auth/signup`, `POST /auth/login` and `GET /me` (spec 4.1). */
export function accountsRoutes(deps: HttpDeps) {
  return new Hono()
    .post('/auth/signup', async (c) => c.json(await signUp(deps, await readJsonObject(c, deps.maxBodyBytes)), 201))
    .post('/auth/login', async (c) => c.json(await logIn(deps, await readJsonObject(c, deps.maxBodyBytes)), 200))
    .get('/me', async (c) => c.json({ user: await currentUser(deps, bearerToken(c.req.header('authorization'))) }, 200));
}
