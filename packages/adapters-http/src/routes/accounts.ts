import { currentUser, logIn, signUp } from '@inkwell/domain';
import { Hono } from 'hono';
import { bearerToken } from '../request/bearer-token.js';
import type { HttpDeps } from '../http-deps.js';
import { readJsonObject } from '../request/json-body.js';
import { jsonResponse } from '../response/json-response.js';
import { noStore } from '../response/no-store.js';
import { clientAddressResolver } from '../node/client-address.js';
import { requestHeader } from '../node/node-request.js';

/** `POST /auth/signup`, `POST /auth/login` and `GET /me` (docs/api.md, Accounts). */
export function accountsRoutes(deps: HttpDeps) {
  const clientAddress = clientAddressResolver(deps.trustProxy ?? false);
  return new Hono()
    .use('/auth/*', noStore)
    .use('/me', noStore)
    .post('/auth/signup', async (c) =>
      jsonResponse(c, await signUp(deps, await readJsonObject(c, deps.maxBodyBytes), { clientAddress: clientAddress(c) }), 201),
    )
    .post('/auth/login', async (c) =>
      jsonResponse(c, await logIn(deps, await readJsonObject(c, deps.maxBodyBytes), { clientAddress: clientAddress(c) }), 200),
    )
    .get('/me', async (c) => jsonResponse(c, { user: await currentUser(deps, bearerToken(requestHeader(c, 'authorization'))) }, 200));
}
