import { DomainError } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import type { PasswordHasher, TokenService, UserRepository } from './ports.js';
import { LogInSchema } from './schemas.js';
import { toPublicUser, type Session } from './user.js';

export interface LogInDeps {
  readonly users: UserRepository;
  readonly hasher: PasswordHasher;
  readonly tokens: TokenService;
}

/**
 * Exchanges e-mail and password for a token (spec 4.1, `POST /auth/login`).
 * An unknown e-mail is verified against the dummy hash, so both failures cost the same.
 */
export async function logIn(deps: LogInDeps, input: unknown): Promise<Session> {
  const { email, password } = parseInput(LogInSchema, input);
  const user = await deps.users.findByEmail(email);

  const matches = await deps.hasher.verify(password, user?.passwordHash ?? deps.hasher.dummyHash);
  if (!user || !matches) throw new DomainError('InvalidCredentials');

  return { token: await deps.tokens.issue(user.id), user: toPublicUser(user) };
}
