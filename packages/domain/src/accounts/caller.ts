import { authenticate, type AuthenticateDeps } from './authenticate.js';

/** Who sends a request: someone who presented no credentials, or a user whose token checked out. */
export type Caller = { readonly kind: 'anonymous' } | { readonly kind: 'user'; readonly userId: string };

/** The caller that presented no credentials. */
export const ANONYMOUS: Caller = Object.freeze({ kind: 'anonymous' });

/**
 * A caller, or how to find out who it is. Checking a token costs a verification and a look-up,
 * so an adapter can pass a function, and rules that never ask who is calling never pay for it.
 */
export type CallerSource = Caller | (() => Promise<Caller>);

/** The caller a source names: the caller itself when it is known, the pending answer when it must be found out. */
export function resolveCaller(source: CallerSource): Caller | Promise<Caller> {
  return typeof source === 'function' ? source() : source;
}

/** Whether a caller is still being found out: only then is there anything to wait for. */
export function isPending(caller: Caller | Promise<Caller>): caller is Promise<Caller> {
  return typeof (caller as { then?: unknown }).then === 'function';
}

/**
 * The caller that presented credentials, by the `GET /me` rules in their order (`authenticate`):
 * `token` null (credentials that are not a bearer token) is `MissingAuthorization`, a token that
 * fails verification or whose session ended `InvalidToken`, a valid token whose user is gone
 * `UserNoLongerExists`.
 */
export async function authenticateCaller(deps: AuthenticateDeps, token: string | null): Promise<Caller> {
  const { user } = await authenticate(deps, token);
  return { kind: 'user', userId: user.id };
}
