// Errors and validation
export { DomainError, domainErrorMessages, isDomainError } from './shared/errors.js';
export type { DomainErrorCode, ValidationIssue } from './shared/errors.js';
export { parseInput, toValidationIssues } from './shared/validation.js';
export type { Clock } from './shared/clock.js';

// Accounts
export type { User, NewUser, PublicUser, SignedIn } from './accounts/user.js';
export { toPublicUser } from './accounts/user.js';
export type { Session, NewSession, PublicSession, SessionRules, SessionsToEnd } from './accounts/session.js';
export { DEFAULT_SESSION_RULES, TOKEN_LIFETIME_MS, endsSession } from './accounts/session.js';
export type {
  UserRepository,
  UserWithSession,
  UserChanges,
  PasswordHasher,
  TokenService,
  TokenClaims,
  NewToken,
} from './accounts/ports.js';
export {
  EmailSchema,
  SignUpSchema,
  LogInSchema,
  LogOutSchema,
  ChangePasswordSchema,
  UpdateAccountSchema,
  DeleteAccountSchema,
  LOGOUT_SCOPES,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_BYTES,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from './accounts/schemas.js';
export type {
  SignUpInput,
  LogInInput,
  LogOutInput,
  LogoutScope,
  ChangePasswordInput,
  UpdateAccountInput,
  DeleteAccountInput,
} from './accounts/schemas.js';
export { signUp, type SignUpDeps, type SignupLimits } from './accounts/sign-up.js';
export { logIn, type LogInDeps } from './accounts/log-in.js';
export type { LoginLimits, PasswordAttemptDeps } from './accounts/password-attempt.js';
export type { ClientContext } from './accounts/client-context.js';
export type { AttemptLimiter, AttemptVerdict } from './accounts/attempt-limiter.js';
export {
  createInMemoryAttemptLimiter,
  DEFAULT_MAX_TRACKED_KEYS,
  type InMemoryAttemptLimiter,
  type InMemoryAttemptLimiterOptions,
} from './accounts/in-memory-attempt-limiter.js';
export { authenticate, type AuthenticateDeps, type Authenticated } from './accounts/authenticate.js';
export { currentUser, type CurrentUserDeps } from './accounts/current-user.js';
export { logOut, type LogOutDeps } from './accounts/log-out.js';
export { listSessions, type ListSessionsDeps } from './accounts/list-sessions.js';
export { endSession, type EndSessionDeps } from './accounts/end-session.js';
export { refreshSession, type RefreshSessionDeps } from './accounts/refresh-session.js';
export { changePassword, type ChangePasswordDeps } from './accounts/change-password.js';
export { updateAccount, type UpdateAccountDeps } from './accounts/update-account.js';
export { deleteAccount, type DeleteAccountDeps } from './accounts/delete-account.js';
export { ANONYMOUS, authenticateCaller, isPending, resolveCaller, type Caller, type CallerSource } from './accounts/caller.js';
export { createInMemoryUserRepository } from './accounts/in-memory-user-repository.js';
export { PublicUserSchema, SignedInSchema, PublicSessionSchema } from './accounts/response-schemas.js';

// Posts
export type { Post, NewPost, PostChanges, Pagination, PostPage } from './posts/post.js';
export { comparePostsNewestFirst } from './posts/post.js';
export type { PostRepository } from './posts/ports.js';
export {
  CreatePostSchema,
  CreateOwnPostSchema,
  UpdatePostSchema,
  ListPostsQuerySchema,
  TITLE_MAX_LENGTH,
  PER_PAGE_DEFAULT,
  PER_PAGE_MAX,
} from './posts/schemas.js';
export type { CreatePostInput, CreateOwnPostInput, UpdatePostInput, ListPostsQuery } from './posts/schemas.js';
export {
  POST_ACCESS_MODES,
  openPostAccess,
  ownerPostAccess,
  postAccessPolicy,
  type PostAccessMode,
  type PostAccessPolicy,
} from './posts/post-access.js';
export { listPublishedPosts, type ListPublishedPostsDeps } from './posts/list-published-posts.js';
export { getPost, type GetPostDeps } from './posts/get-post.js';
export { createPost, type CreatePostDeps } from './posts/create-post.js';
export { updatePost, type UpdatePostDeps } from './posts/update-post.js';
export { deletePost, type DeletePostDeps } from './posts/delete-post.js';
export { listOwnPosts, type ListOwnPostsDeps } from './posts/list-own-posts.js';
export { createInMemoryPostRepository } from './posts/in-memory-post-repository.js';
export { PostSchema, PaginationSchema, PostPageSchema } from './posts/response-schemas.js';
