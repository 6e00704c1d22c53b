import { authenticate, type AuthenticateDeps, type AuthenticateRequest, type Authenticated } from './authenticate.js';

/** Who sends a request: someone who presented no credentials, or a user whose token checked out. */
export type Caller = { readonly kind: 'anonymous' } | { readonly kind: 'user'; readonly userId: string };

/** The caller that presented no credentials. */
export const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

/** The user whose credentials were presented, by the `GET /me` rules (`authenticate`). */
export async function authenticateCaller(deps: AuthenticateDeps, request: AuthenticateRequest): Promise<Caller> {
  return callerOf(await authenticate(deps, request));
}

/** The caller an authenticated request comes from. */
export function callerOf({ user }: Authenticated): Caller {
  return { kind: 'user', userId: user.id };
}
