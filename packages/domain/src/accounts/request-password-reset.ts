import { DomainError } from '../shared/errors.js';
import { parseInput, readBody } from '../shared/validation.js';
import type { AccountDeps } from './account-deps.js';
import { limitedKey, resetFromKey } from './attempt-limiter.js';
import { enqueueLimited, passwordReset } from './outgoing-mail.js';
import { RequestPasswordResetSchema } from './schemas.js';
import type { UseCaseRequest } from './use-case-request.js';

/** What `requestPasswordReset` reads: the body (`RequestPasswordResetSchema`), and the client, whose address the limit counts. */
export type RequestPasswordResetRequest = Pick<UseCaseRequest, 'body' | 'client'>;

/**
 * Asks for a password reset link for an address (docs/api.md, `POST /auth/password-reset`).
 * The same work whether or not an account has the address, so neither the answer nor its time
 * tells: the attempt is counted per client address, per e-mail from that client address, and per
 * e-mail from every client (so that one client's requests for an address never use up another
 * client's, while the last bounds how much any address can be sent), then one message naming the
 * address, with a new link token, is accepted for delivery. No account is looked up here:
 * delivery does that (`deliverMessage`), and sends a mail only to an account's address. A request
 * that ends in a store failure is not counted.
 */
export async function requestPasswordReset(
  deps: Pick<AccountDeps, 'outbox' | 'clock' | 'mailLimits'>,
  request: RequestPasswordResetRequest,
): Promise<void> {
  const { outbox } = deps;
  if (!outbox) throw new DomainError('NotOffered');
  const { email } = parseInput(RequestPasswordResetSchema, await readBody(request.body));
  const address = request.client?.clientAddress;
  const limits = [
    limitedKey(deps.mailLimits?.resetsPerAddress, address),
    limitedKey(deps.mailLimits?.resetsPerEmailFromAddress, resetFromKey(email, address)),
    limitedKey(deps.mailLimits?.resetsPerEmail, email),
  ];
  await enqueueLimited(outbox, limits, passwordReset(email, deps.clock.now()));
}
