import { DomainError } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import { giveBackAttempts, limitedKey, resetAttempts, takeAttempts, type AttemptLimiter } from './attempt-limiter.js';
import type { ClientContext } from './client-context.js';
import type { PasswordHasher, TokenService, UserRepository } from './ports.js';
import { LogInSchema } from './schemas.js';
import { toPublicUser, type Session } from './user.js';

export interface LogInDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  /** The brute-force rules; a rule without a limiter is off. */
  readonly loginLimits?: LoginLimits;
}

/** Failed logins counted per e-mail and, at a higher limit, per client address. */
export interface LoginLimits {
  readonly failuresPerEmail?: AttemptLimiter;
  readonly failuresPerAddress?: AttemptLimiter;
}

/**
 * Exchanges e-mail and password for a token (docs/api.md, `POST /auth/login`).
 * An unknown e-mail is verified against the dummy hash, so both failures cost the same.
 *
 * Brute force: every attempt that passes validation is counted against its e-mail and its
 * client address before the password is checked (so parallel guesses cannot outrun the count),
 * and a key over its limit answers `TooManyAttempts` without checking anything, even for the
 * right password. A correct password resets its e-mail's count (the owner proved themselves;
 * typos before it should not lock them out later) and takes back only its own attempt from the
 * address (a working account must not let an address wipe its failures on others). An attempt
 * that ends in a store or hasher failure is taken back: it was no guess. A limiter that cannot
 * count (its store is unreachable) fails the login before anything is checked.
 */
export async function logIn(deps: LogInDeps, input: unknown, context: ClientContext = {}): Promise<Session> {
  const { email, password } = parseInput(LogInSchema, input);
  const limits = deps.loginLimits;
  const byAddress = limitedKey(limits?.failuresPerAddress, context.clientAddress);
  const byEmail = limitedKey(limits?.failuresPerEmail, email);
  const taken = await takeAttempts([byAddress, byEmail]);

  let user;
  let matches;
  try {
    user = await deps.users.findByEmail(email);
    matches = await deps.hasher.verify(password, user?.passwordHash ?? deps.hasher.dummyHash);
  } catch (error) {
    await giveBackAttempts(taken);
    throw error;
  }
  if (!user || !matches) throw new DomainError('InvalidCredentials');

  await Promise.all([resetAttempts(byEmail), giveBackAttempts(byAddress ? [byAddress] : [])]);
  return { token: await deps.tokens.issue(user.id), user: toPublicUser(user) };
}
