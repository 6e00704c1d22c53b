import type { Clock, PasswordHasher, PostRepository, TokenService, UserRepository } from '@inkwell/domain';
import type { Logger } from './logger.js';

/** Everything the HTTP app needs: the domain's ports, a logger, and the body limit. */
export interface HttpDeps {
  readonly users: UserRepository;
  readonly posts: PostRepository;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Whether the store answers right now; backs `GET /health`. Must not throw or hang. */
  readonly storeIsUp: () => Promise<boolean>;
  /** Largest accepted request body in bytes; decisions.md's 1 MiB when omitted. */
  readonly maxBodyBytes?: number;
}
