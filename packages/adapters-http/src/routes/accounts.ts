import {
  changePassword,
  currentUser,
  deleteAccount,
  endSession,
  listSessions,
  logIn,
  logOut,
  refreshSession,
  signUp,
  updateAccount,
} from '@inkwell/domain';
import { Hono, type Context } from 'hono';
import type { HttpDeps } from '../http-deps.js';
import { readJsonObject, readOptionalJsonObject } from '../request/json-body.js';
import { emptyResponse, jsonResponse } from '../response/json-response.js';
import { noStore } from '../response/no-store.js';
import { clientAddressResolver } from '../node/client-address.js';
import { credentialsOf } from '../request/credentials.js';

/**
 * Signup, login, the current user, and the account's sessions and own changes (docs/api.md,
 * Accounts and Sessions). Every answer carries a token or an account: none may be cached. Each
 * route hands its use case the credentials the request presented and, where there is one, a body read only once the
 * credentials have passed.
 */
export function accountsRoutes(deps: HttpDeps) {
  const clientAddress = clientAddressResolver(deps.trustProxy ?? false);
  const client = (c: Context) => ({ clientAddress: clientAddress(c) });
  const body = (c: Context) => () => readJsonObject(c, deps.maxBodyBytes);
  return new Hono()
    // `/me/*` is `/me` and every path under it (Hono's wildcard matches the empty rest too).
    .use('/auth/*', noStore)
    .use('/me/*', noStore)
    .post('/auth/signup', async (c) => jsonResponse(c, await signUp(deps, await readJsonObject(c, deps.maxBodyBytes), client(c)), 201))
    .post('/auth/login', async (c) => jsonResponse(c, await logIn(deps, await readJsonObject(c, deps.maxBodyBytes), client(c)), 200))
    .post('/auth/logout', async (c) => {
      await logOut(deps, credentialsOf(c), () => readOptionalJsonObject(c, deps.maxBodyBytes));
      return emptyResponse(c, 204);
    })
    .post('/auth/refresh', async (c) => jsonResponse(c, await refreshSession(deps, credentialsOf(c)), 200))
    .post('/auth/password', async (c) => jsonResponse(c, { user: await changePassword(deps, credentialsOf(c), body(c), client(c)) }, 200))
    .get('/me', async (c) => jsonResponse(c, { user: await currentUser(deps, credentialsOf(c)) }, 200))
    .patch('/me', async (c) => jsonResponse(c, { user: await updateAccount(deps, credentialsOf(c), body(c), client(c)) }, 200))
    .delete('/me', async (c) => {
      await deleteAccount(deps, credentialsOf(c), body(c), client(c));
      return emptyResponse(c, 204);
    })
    .get('/me/sessions', async (c) => jsonResponse(c, { sessions: await listSessions(deps, credentialsOf(c)) }, 200))
    .delete('/me/sessions/:id', async (c) => {
      await endSession(deps, credentialsOf(c), c.req.param('id'));
      return emptyResponse(c, 204);
    });
}
