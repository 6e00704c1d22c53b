import type { Clock } from '../shared/clock.js';
import { DomainError, isDomainError } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import { giveBackAttempts, limitedKey, takeAttempts, type AttemptLimiter } from './attempt-limiter.js';
import type { ClientContext } from './client-context.js';
import type { PasswordHasher, TokenService, UserRepository } from './ports.js';
import { SignUpSchema } from './schemas.js';
import { DEFAULT_SESSION_RULES, newSession, type SessionRules } from './session.js';
import { signedIn } from './signed-in.js';
import type { SignedIn } from './user.js';

export interface SignUpDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly clock: Clock;
  /** The abuse rule; without a limiter it is off. */
  readonly signupLimits?: SignupLimits;
  /** How long the first session may live; `DEFAULT_SESSION_RULES` when omitted. */
  readonly sessionRules?: SessionRules;
}

/** Signups counted per client address. */
export interface SignupLimits {
  readonly perAddress?: AttemptLimiter;
}

/**
 * Creates an account, with its first session, and a token of it (docs/api.md, `POST /auth/signup`).
 * The look-up spares a hash for a taken e-mail; the repository's insert is what decides a race,
 * and it stores the account and its session in one step.
 *
 * Every signup that passes validation counts against its client address, a 409 included (so
 * the limit also bounds probing which e-mails exist); one that ends in a store or hasher
 * failure is taken back.
 */
export async function signUp(deps: SignUpDeps, input: unknown, context: ClientContext = {}): Promise<SignedIn> {
  const { email, name, password } = parseInput(SignUpSchema, input);
  const taken = await takeAttempts([limitedKey(deps.signupLimits?.perAddress, context.clientAddress)]);

  try {
    if (await deps.users.findByEmail(email)) throw new DomainError('EmailAlreadyInUse');

    const passwordHash = await deps.hasher.hash(password);
    const now = deps.clock.now();
    const { user, session } = await deps.users.insert(
      { email, name, passwordHash, createdAt: now, updatedAt: now },
      newSession(now, deps.sessionRules ?? DEFAULT_SESSION_RULES),
    );
    return await signedIn(deps.tokens, user, session, now);
  } catch (error) {
    if (!isDomainError(error, 'EmailAlreadyInUse')) await giveBackAttempts(taken);
    throw error;
  }
}
