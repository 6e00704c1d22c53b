import type { UseCaseDeps } from '@inkwell/domain';
import type { Logger } from './logger.js';
import type { RequestsInFlight } from './middleware/requests-in-flight.js';

/**
 * Everything the HTTP app needs: every port, policy and rule set of the domain's use cases
 * (`UseCaseDeps`: the posts access policy among them, which has no default, and the login and
 * signup limits and session rules, off or the domain's defaults when omitted), a logger, and what
 * only HTTP knows.
 */
export interface HttpDeps extends UseCaseDeps {
  readonly logger: Logger;
  /**
   * Where the one line per request goes; `logger` when omitted. The composition root may pass
   * a cheaper logger for it (the line has fixed, plain fields), since it is written on every request.
   */
  readonly accessLogger?: Logger;
  /**
   * Whether the store can be reached, as last seen (a ping in the background, the requests' own
   * failures): `GET /health` answers it at once, whatever the database does meanwhile.
   */
  readonly storeReachable: () => boolean;
  /** Told of every answer 503 `Service unavailable` because the store could not be reached, so that an outage is seen and counted. */
  readonly storeUnreachable?: () => void;
  /** Where the requests under way are kept, so that a server cutting them at shutdown can name each (`RequestsInFlight`). */
  readonly requestsInFlight?: RequestsInFlight;
  /** Whether the process is stopping (draining before it exits): `GET /health` then answers 503 `stopping`. Never, when omitted. */
  readonly stopping?: () => boolean;
  /** Largest accepted request body in bytes; docs/api.md's 1 MiB when omitted. */
  readonly maxBodyBytes?: number;
  /**
   * Whether a reverse proxy in front is trusted to name the client (`X-Forwarded-For`); without
   * one the client is the socket's peer. The per-address limits count by it.
   */
  readonly trustProxy?: boolean;
  /** Origins allowed by CORS; CORS is off when omitted or empty. */
  readonly corsOrigins?: readonly string[];
  /** Serve `/openapi.json` and the `/docs` page (`API_DOCS`); on when omitted. */
  readonly apiDocs?: boolean;
}
