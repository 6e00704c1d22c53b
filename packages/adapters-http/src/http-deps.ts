import type {
  Clock,
  LoginLimits,
  PasswordHasher,
  PostAccessPolicy,
  PostRepository,
  SessionRules,
  SignupLimits,
  TokenService,
  UserRepository,
} from '@inkwell/domain';
import type { Logger } from './logger.js';

/** Everything the HTTP app needs: the domain's ports, a logger, and the body limit. */
export interface HttpDeps {
  readonly users: UserRepository;
  readonly posts: PostRepository;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly clock: Clock;
  readonly logger: Logger;
  /**
   * Where the one line per request goes; `logger` when omitted. The composition root may pass
   * a cheaper logger for it (the line has fixed, plain fields), since it is written on every request.
   */
  readonly accessLogger?: Logger;
  /** Whether the store answers right now; backs `GET /health`, which bounds how long it waits for the answer. */
  readonly storeIsUp: () => Promise<boolean>;
  /** Whether the process is stopping (draining before it exits): `GET /health` then answers 503 `stopping`. Never, when omitted. */
  readonly stopping?: () => boolean;
  /** Largest accepted request body in bytes; docs/api.md's 1 MiB when omitted. */
  readonly maxBodyBytes?: number;
  /** Brute-force limits on login; off when omitted. */
  readonly loginLimits?: LoginLimits;
  /** Abuse limit on signup; off when omitted. */
  readonly signupLimits?: SignupLimits;
  /** Sessions per account and their maximum age (`SESSIONS_MAX_PER_USER`, `SESSION_MAX_AGE_DAYS`); the domain's defaults when omitted. */
  readonly sessionRules?: SessionRules;
  /**
   * Whether a reverse proxy in front is trusted to name the client (`X-Forwarded-For`); without
   * one the client is the socket's peer. The per-address limits count by it.
   */
  readonly trustProxy?: boolean;
  /** Origins allowed by CORS; CORS is off when omitted or empty. */
  readonly corsOrigins?: readonly string[];
  /**
   * Who may read and write which posts (`POSTS_ACCESS`): the open contract when omitted. Under a
   * policy where posts have owners, `GET /me/posts` lists the caller's own.
   */
  readonly postAccess?: PostAccessPolicy;
  /** Serve `/openapi.json` and the `/docs` page (`API_DOCS`); on when omitted. */
  readonly apiDocs?: boolean;
}
