const SCHEME = 'Bearer';
const PREFIX = `${SCHEME} `;

/**
 * The token of an `Authorization: Bearer <token>` header, or null when the header is absent
 * or does not start with exactly `Bearer ` (docs/api.md). `Bearer ` alone gives `""`, which
 * the domain rejects as an invalid token. HTTP strips trailing whitespace from header values
 * (RFC 9110 5.5), so `Bearer ` followed by nothing reaches the server as the bare scheme
 * `Bearer`: that is the same request and also gives `""`.
 */
export function bearerToken(header: string | undefined): string | null {
  if (header === SCHEME) return '';
  return header?.startsWith(PREFIX) ? header.slice(PREFIX.length) : null;
}
