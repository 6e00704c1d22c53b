import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import type { ClientContext } from './client-context.js';
import { attemptPassword, type PasswordAttemptDeps } from './password-attempt.js';
import type { TokenService, UserRepository } from './ports.js';
import { LogInSchema } from './schemas.js';
import { DEFAULT_SESSION_RULES, newSession, type SessionRules } from './session.js';
import { signedIn } from './signed-in.js';
import type { SignedIn } from './user.js';

export interface LogInDeps extends PasswordAttemptDeps {
  readonly users: UserRepository;
  readonly tokens: TokenService;
  readonly clock: Clock;
  /** How many sessions an account keeps; `DEFAULT_SESSION_RULES` when omitted. */
  readonly sessionRules?: SessionRules;
}

/**
 * Exchanges e-mail and password for a token of a new session (docs/api.md, `POST /auth/login`).
 * An unknown e-mail is verified against the dummy hash, so both failures cost the same, and both
 * count against the login limits (`attemptPassword`). Past the account's session bound, the
 * oldest session ends. The session starts only if the account still has the hash the password
 * was checked against: a password changed (or an account deleted) while the check ran answers
 * `InvalidCredentials`, as the login would have, had it started after.
 */
export async function logIn(deps: LogInDeps, input: unknown, context: ClientContext = {}): Promise<SignedIn> {
  const { email, password } = parseInput(LogInSchema, input);
  const user = await attemptPassword(deps, email, context, async () => {
    const found = await deps.users.findByEmail(email);
    const matches = await deps.hasher.verify(password, found?.passwordHash ?? deps.hasher.dummyHash);
    return found && matches ? found : null;
  });
  if (!user) throw new DomainError('InvalidCredentials');

  const rules = deps.sessionRules ?? DEFAULT_SESSION_RULES;
  const now = deps.clock.now();
  const session = await deps.users.startSession(user.id, newSession(now, rules), rules.maxPerUser, now, { passwordHash: user.passwordHash });
  if (!session) throw new DomainError('InvalidCredentials');
  return signedIn(deps.tokens, user, session, now);
}
