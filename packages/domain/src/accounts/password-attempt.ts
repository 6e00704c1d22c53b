import { DomainError } from '../shared/errors.js';
import type { AccountDeps } from './account-deps.js';
import { giveBackAttempts, limitedKey, resetAttempts, takeAttempts } from './attempt-limiter.js';
import type { ClientContext } from './client-context.js';
import type { User } from './user.js';

/** What a password check under the login limits needs. */
type PasswordAttemptDeps = Pick<AccountDeps, 'hasher' | 'loginLimits'>;

/**
 * Runs one password check as a login attempt of `email` from `client`'s address: `check`
 * answers what the password unlocks, or null when it does not match.
 *
 * Every attempt is counted against its e-mail and its client address before the password is
 * checked (so parallel guesses cannot outrun the count), and a key over its limit answers
 * `TooManyAttempts` without checking anything, even for the right password. A correct password
 * resets its e-mail's count (the owner proved themselves; typos before it should not lock them
 * out later) and takes back only its own attempt from the address (a working account must not let
 * an address wipe its failures on others). An attempt that ends in a store or hasher failure is
 * taken back: it was no guess. A limiter that cannot count (its store is unreachable) fails the
 * attempt before anything is checked.
 */
export async function attemptPassword<T>(
  deps: PasswordAttemptDeps,
  email: string,
  client: ClientContext | undefined,
  check: () => Promise<T | null>,
): Promise<T | null> {
  const limits = deps.loginLimits;
  const byAddress = limitedKey(limits?.failuresPerAddress, client?.clientAddress);
  const byEmail = limitedKey(limits?.failuresPerEmail, email);
  const taken = await takeAttempts([byAddress, byEmail]);

  let unlocked: T | null;
  try {
    unlocked = await check();
  } catch (error) {
    await giveBackAttempts(taken);
    throw error;
  }
  if (unlocked !== null) {
    const fromAddress = taken.filter(({ limiter, key }) => limiter === byAddress?.limiter && key === byAddress.key);
    await Promise.all([resetAttempts(byEmail), giveBackAttempts(fromAddress)]);
  }
  return unlocked;
}

/**
 * Requires the signed-in `user`'s current password before a change that needs it (docs/api.md,
 * Sessions): a wrong one is `CurrentPasswordIncorrect` and counts as a failed login of the
 * account's e-mail, so the login limits apply to guesses made with a stolen token too.
 */
export async function confirmCurrentPassword(
  deps: PasswordAttemptDeps,
  user: User,
  password: string,
  client: ClientContext | undefined,
): Promise<void> {
  const confirmed = await attemptPassword(deps, user.email, client, async () =>
    (await deps.hasher.verify(password, user.passwordHash)) ? user : null,
  );
  if (confirmed === null) throw new DomainError('CurrentPasswordIncorrect');
}
