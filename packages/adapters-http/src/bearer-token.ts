const PREFIX = 'Bearer ';

/**
 * The token of an `Authorization: Bearer <token>` header, or null when the header is absent
 * or does not start with exactly `Bearer ` (decisions.md). `Bearer ` alone gives `""`,
 * which the domain rejects as an invalid token.
 */
export function bearerToken(header: string | undefined): string | null {
  return header?.startsWith(PREFIX) ? header.slice(PREFIX.length) : null;
}
