import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import type { PasswordHasher, TokenService, UserRepository } from './ports.js';
import { SignUpSchema } from './schemas.js';
import { toPublicUser, type Session } from './user.js';

export interface SignUpDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
  readonly clock: Clock;
}

/**
 * Creates an account and a token for it (spec 4.1, `POST /auth/signup`).
 * The look-up spares a hash for a taken e-mail; the repository's insert is what decides a race.
 */
export async function signUp(deps: SignUpDeps, input: unknown): Promise<Session> {
  const { email, name, password } = parseInput(SignUpSchema, input);
  if (await deps.users.findByEmail(email)) throw new DomainError('EmailAlreadyInUse');

  const passwordHash = await deps.hasher.hash(password);
  const now = deps.clock.now();
  const user = await deps.users.insert({ email, name, passwordHash, createdAt: now, updatedAt: now });

  return { token: await deps.tokens.issue(user.id), user: toPublicUser(user) };
}
