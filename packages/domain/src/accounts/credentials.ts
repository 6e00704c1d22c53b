/**
 * What a request presented to say who sends it: nothing, credentials that are not a bearer token
 * (another `Authorization` scheme, or a malformed one), or a bearer token. Every use case that
 * may need to know the caller takes these; whether they are checked, and when, is its rule.
 */
export type Credentials =
  | { readonly scheme: 'none' }
  | { readonly scheme: 'other' }
  | { readonly scheme: 'bearer'; readonly token: string };

/** No credentials at all: an anonymous request. */
export const NO_CREDENTIALS: Credentials = Object.freeze({ scheme: 'none' });

/** Credentials of another scheme than `Bearer`. */
export const OTHER_CREDENTIALS: Credentials = Object.freeze({ scheme: 'other' });

/** A bearer token, as `Authorization: Bearer <token>` presents it. */
export function bearer(token: string): Credentials {
  return { scheme: 'bearer', token };
}
