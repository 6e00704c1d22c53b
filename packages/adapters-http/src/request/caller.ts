import { ANONYMOUS, authenticateCaller, type CallerSource, type CurrentUserDeps } from '@inkwell/domain';
import type { Context } from 'hono';
import { requestHeader } from '../node/node-request.js';
import { bearerToken } from './bearer-token.js';

/**
 * Who sends this request: no `Authorization` header is an anonymous caller, known at once; any
 * `Authorization` header is checked by the `GET /me` rules (a header that is not `Bearer `, a
 * token that fails, a user who is gone: each a 401 with its own message), and only if a rule asks.
 */
export function callerOf(c: Context, deps: CurrentUserDeps): CallerSource {
  const header = requestHeader(c, 'authorization');
  return header === undefined ? ANONYMOUS : () => authenticateCaller(deps, bearerToken(header));
}
