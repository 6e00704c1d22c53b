/**
 * The Content-Security-Policy of a JSON API: a response may load nothing and be framed by
 * nobody, so a JSON body a browser is tricked into rendering cannot run anything.
 */
export const JSON_API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * What every answer carries for browsers: the headers and values of Hono's `secureHeaders` with
 * its defaults (`X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, HSTS, the
 * cross-origin policies, …), and the JSON API's strict CSP. Also written on the answers Node's
 * parser refuses before the app sees the request (node/client-error-response.ts).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': JSON_API_CONTENT_SECURITY_POLICY,
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=15552000; includeSubDomains',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
});
