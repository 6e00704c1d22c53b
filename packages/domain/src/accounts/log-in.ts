import { DomainError } from '../shared/errors.js';
import { parseInput, readBody } from '../shared/validation.js';
import type { AccountDeps } from './account-deps.js';
import { attemptPassword } from './password-attempt.js';
import { LogInSchema } from './schemas.js';
import { DEFAULT_SESSION_RULES, newSession } from './session.js';
import { signedIn } from './signed-in.js';
import type { UseCaseRequest } from './use-case-request.js';
import type { SignedIn } from './user.js';

/** What `logIn` reads: the body (`LogInSchema`), and the client, whose address the login limits count. */
export type LogInRequest = Pick<UseCaseRequest, 'body' | 'client'>;

/**
 * Exchanges e-mail and password for a token of a new session (docs/api.md, `POST /auth/login`).
 * An unknown e-mail is verified against the dummy hash, so both failures cost the same, and both
 * count against the login limits (`attemptPassword`). Past the account's session bound, the
 * oldest session ends. The session starts only if the account still has the hash the password
 * was checked against: a password changed (or an account deleted) while the check ran answers
 * `InvalidCredentials`, as the login would have, had it started after.
 */
export async function logIn(
  deps: Pick<AccountDeps, 'users' | 'hasher' | 'tokens' | 'clock' | 'loginLimits' | 'sessionRules'>,
  request: LogInRequest,
): Promise<SignedIn> {
  const { email, password } = parseInput(LogInSchema, await readBody(request.body));
  const user = await attemptPassword(deps, email, request.client, async () => {
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
