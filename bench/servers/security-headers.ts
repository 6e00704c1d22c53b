import type { HelmetOptions } from 'helmet';

/**
 * helmet's options for inkwell's security headers, for the Fastify (@fastify/helmet) and Express
 * (helmet) servers: helmet's defaults, which are inkwell's headers, but for a Content-Security-Policy
 * that allows nothing (a JSON API serves no page) and Strict-Transport-Security's 180 days, where
 * helmet 8 says a year.
 */
export const SECURITY_HEADERS = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  strictTransportSecurity: { maxAge: 15_552_000, includeSubDomains: true },
} as const satisfies HelmetOptions;
