import {
  createInMemoryAttemptLimiter,
  type AttemptLimiter,
  type Clock,
  type LoginLimits,
  type SignupLimits,
} from '@inkwell/domain';
import type { Config } from './config.js';

/** The login and signup limits the configuration asks for, as the use cases take them. */
export interface AbuseLimits {
  readonly loginLimits: LoginLimits;
  readonly signupLimits: SignupLimits;
}

/**
 * In-process limiters for the configured rules (a `max` of 0 leaves that rule off). They count
 * per process: several instances behind a load balancer each allow the full limit, unless these
 * are replaced by an `AttemptLimiter` over a shared store (README, Security).
 */
export function createAbuseLimits(limits: Config['limits'], clock: Clock): AbuseLimits {
  const limiter = ({ max, windowSeconds }: { max: number; windowSeconds: number }): AttemptLimiter | undefined =>
    max > 0 ? createInMemoryAttemptLimiter({ max, windowSeconds, clock }) : undefined;
  return {
    loginLimits: {
      failuresPerEmail: limiter(limits.loginFailuresPerEmail),
      failuresPerAddress: limiter(limits.loginFailuresPerAddress),
    },
    signupLimits: { perAddress: limiter(limits.signupsPerAddress) },
  };
}
