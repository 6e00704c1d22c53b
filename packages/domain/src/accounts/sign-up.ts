import { DomainError, isDomainError } from '../shared/errors.js';
import { parseInput, readBody } from '../shared/validation.js';
import type { AccountDeps } from './account-deps.js';
import { giveBackAttempts, limitedKey, takeAttempts } from './attempt-limiter.js';
import { emailVerification, enqueue } from './outgoing-mail.js';
import { SignUpSchema } from './schemas.js';
import { DEFAULT_SESSION_RULES, newSession } from './session.js';
import { signedIn } from './signed-in.js';
import type { UseCaseRequest } from './use-case-request.js';
import type { SignedIn } from './user.js';

/** What `signUp` reads: the body (`SignUpSchema`), and the client, whose address the signup limit counts. */
export type SignUpRequest = Pick<UseCaseRequest, 'body' | 'client'>;

/**
 * Creates an account, with its first session, and a token of it (docs/api.md, `POST /auth/signup`).
 * The look-up spares a hash for a taken e-mail; the repository's insert is what decides a race,
 * and it stores the account and its session in one step. The account starts unverified; when mail
 * is on, a verification link to its address is accepted for delivery before the answer.
 *
 * Every signup that passes validation counts against its client address, a 409 included (so
 * the limit also bounds probing which e-mails exist); one that ends in a store or hasher
 * failure is taken back.
 */
export async function signUp(
  deps: Pick<AccountDeps, 'users' | 'hasher' | 'tokens' | 'clock' | 'signupLimits' | 'sessionRules' | 'outbox'>,
  request: SignUpRequest,
): Promise<SignedIn> {
  const { email, name, password } = parseInput(SignUpSchema, await readBody(request.body));
  const taken = await takeAttempts([limitedKey(deps.signupLimits?.perAddress, request.client?.clientAddress)]);

  try {
    if (await deps.users.findByEmail(email)) throw new DomainError('EmailAlreadyInUse');

    const passwordHash = await deps.hasher.hash(password);
    const now = deps.clock.now();
    const { user, session } = await deps.users.insert(
      { email, name, passwordHash, emailVerified: false, createdAt: now, updatedAt: now },
      newSession(now, deps.sessionRules ?? DEFAULT_SESSION_RULES),
    );
    await enqueue(deps.outbox, () => [emailVerification(user, now)]);
    return await signedIn(deps.tokens, user, session, now);
  } catch (error) {
    if (!isDomainError(error, 'EmailAlreadyInUse')) await giveBackAttempts(taken);
    throw error;
  }
}
