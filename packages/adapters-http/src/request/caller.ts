import { ANONYMOUS, authenticateCaller, type CallerSource, type CurrentUserDeps } from '@inkwell/domain';
import type { Context } from 'hono';
import { requestHeader } from '../node/node-request.js';
import { bearerToken } from './bearer-token.js';

/**
 * Who sends this request, found out only if a rule asks: no `Authorization` header is an
 * anonymous caller; any `Authorization` header is checked by the `GET /me` rules (a header that
 * is not `Bearer `, a token that fails, a user who is gone: each a 401 with its own message).
 */
export function callerOf(c: Context, deps: CurrentUserDeps): CallerSource {
  return async () => {
    const header = requestHeader(c, 'authorization');
    return header === undefined ? ANONYMOUS : authenticateCaller(deps, bearerToken(header));
  };
}
