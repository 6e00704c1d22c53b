import { NO_CREDENTIALS, OTHER_CREDENTIALS, bearer, type Credentials } from '@inkwell/domain';
import type { Context } from 'hono';
import { bearerToken } from './bearer-token.js';

/**
 * What this request presents to say who sends it, for the use cases to check by their rules: no
 * `Authorization` header is no credentials (a shared constant: nothing allocated), a header that is
 * not `Bearer <token>` is credentials of another scheme, and a bearer token is itself.
 */
export function credentialsOf(c: Context): Credentials {
  const header = c.req.header('authorization');
  if (header === undefined) return NO_CREDENTIALS;
  const token = bearerToken(header);
  return token === null ? OTHER_CREDENTIALS : bearer(token);
}
