import { POST_USE_CASES, type PostUseCase } from './posts/post-access.js';
import type { UseCaseDeps } from './posts/use-case-deps.js';

/** The account use cases, by name: offered under any deps. */
export type AccountUseCase =
  | 'signUp'
  | 'logIn'
  | 'currentUser'
  | 'logOut'
  | 'listSessions'
  | 'endSession'
  | 'refreshSession'
  | 'changePassword'
  | 'updateAccount'
  | 'deleteAccount';

/** Every use case of the domain, by name. */
export type UseCaseName = AccountUseCase | PostUseCase;

const postUseCases: ReadonlySet<string> = new Set(POST_USE_CASES);

/**
 * Whether `useCase` exists under `deps`. One that does not answers `NotOffered` when called, and
 * an adapter leaves it out altogether (over HTTP its route is an unknown path, 404, and is absent
 * from the OpenAPI document). The account use cases are always offered; the post use cases are
 * their access policy's to offer (`PostAccessPolicy.offers`: `listOwnPosts` only where posts have
 * owners).
 */
export function isOffered(useCase: UseCaseName, deps: Pick<UseCaseDeps, 'postAccess'>): boolean {
  return postUseCases.has(useCase) ? deps.postAccess.offers(useCase as PostUseCase) : true;
}
