import { POST_USE_CASES, type PostUseCase } from './posts/post-access.js';
import type { UseCaseDeps } from './posts/use-case-deps.js';

/** The account use cases, by name: offered under any deps. */
export type AccountUseCase =
  | 'signUp'
  | 'logIn'
  | 'currentUser'
  | 'currentAccount'
  | 'logOut'
  | 'listSessions'
  | 'endSession'
  | 'refreshSession'
  | 'changePassword'
  | 'updateAccount'
  | 'deleteAccount';

/**
 * The use cases that exist only to send mail or to use what it carried, by name: offered where
 * mail is on (an `outbox` in the deps); `deliverMessage` also needs the `mailer` it sends with.
 */
export const MAIL_USE_CASES = ['requestPasswordReset', 'confirmPasswordReset', 'verifyEmail', 'requestEmailVerification', 'deliverMessage'] as const;
export type MailUseCase = (typeof MAIL_USE_CASES)[number];

/** Every use case of the domain, by name. */
export type UseCaseName = AccountUseCase | MailUseCase | PostUseCase;

const postUseCases: ReadonlySet<string> = new Set(POST_USE_CASES);
const mailUseCases: ReadonlySet<string> = new Set(MAIL_USE_CASES);

/**
 * Whether `useCase` exists under `deps`. One that does not answers `NotOffered` when called, and
 * an adapter leaves it out altogether (over HTTP its route is an unknown path, 404, and is absent
 * from the OpenAPI document). The account use cases are always offered; the mail use cases where
 * mail is on (an `outbox`; `deliverMessage` needs a `mailer` too); the post use cases are their
 * access policy's to offer (`PostAccessPolicy.offers`: `listOwnPosts` only where posts have owners).
 */
export function isOffered(useCase: UseCaseName, deps: Pick<UseCaseDeps, 'postAccess' | 'outbox' | 'mailer'>): boolean {
  if (postUseCases.has(useCase)) return deps.postAccess.offers(useCase as PostUseCase);
  if (mailUseCases.has(useCase)) return deps.outbox !== undefined && (useCase !== 'deliverMessage' || deps.mailer !== undefined);
  return true;
}
