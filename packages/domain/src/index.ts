// @inkwell/domain: what a service built on inkwell's rules needs, and nothing else: the use cases,
// their deps and requests, the ports to implement, the entities, the errors, the schemas, and the
// in-memory adapters. Test helpers and the contract suites are in `@inkwell/domain/testing`.
//
// Every use case is `useCase(deps, request): Promise<answer>`: `deps` a `Pick` of `UseCaseDeps`
// naming what it touches, `request` a `Pick` of `UseCaseRequest` naming what it reads.

// The shape of every use case
export type { UseCaseDeps } from './posts/use-case-deps.js';
export type { AccountDeps } from './accounts/account-deps.js';
export type { UseCaseRequest, VersionCondition, IdempotentRequest } from './accounts/use-case-request.js';
export { isOffered, MAIL_USE_CASES, type AccountUseCase, type MailUseCase, type UseCaseName } from './use-cases.js';

// Errors and validation
export { DOMAIN_ERROR_CODES, DomainError, isDomainError } from './shared/errors.js';
export type { DomainErrorCode, DomainErrorFacts, ValidationIssue } from './shared/errors.js';
export { parseInput, type ObjectIssueMessage, type ReadBody } from './shared/validation.js';
export type { Clock } from './shared/clock.js';

// Accounts: entities, sessions and ports
export type { User, NewUser, PublicUser, Account, SignedIn } from './accounts/user.js';
export type { Session, NewSession, PublicSession, SessionRules, SessionsToEnd, TokensWithoutSession } from './accounts/session.js';
export { DEFAULT_SESSION_RULES, TOKEN_LIFETIME_MS, acceptsTokenWithoutSession, endsSession } from './accounts/session.js';
export type {
  UserRepository,
  AuthoredPosts,
  UserWithSession,
  UserChanges,
  LinkRecord,
  Verified,
  PasswordHasher,
  TokenService,
  TokenClaims,
  NewToken,
} from './accounts/ports.js';
export type { AttemptLimiter, AttemptVerdict, EmailChangeLimits, LoginLimits, MailLimits, SignupLimits } from './accounts/attempt-limiter.js';
export { DEFAULT_MAIL_RULES, PASSWORD_RESET_LINKS_KEPT, type MailRules } from './accounts/mail-rules.js';
export { newLinkToken, hashLinkToken } from './accounts/link-tokens.js';
export type { ClientContext } from './accounts/client-context.js';
export { NO_CREDENTIALS, OTHER_CREDENTIALS, bearer, type Credentials } from './accounts/credentials.js';
export { ANONYMOUS, type Caller } from './accounts/caller.js';

// Accounts: schemas
export {
  SignUpSchema,
  LogInSchema,
  LogOutSchema,
  ChangePasswordSchema,
  UpdateAccountSchema,
  DeleteAccountSchema,
  RequestPasswordResetSchema,
  ConfirmPasswordResetSchema,
  VerifyEmailSchema,
  LOGOUT_SCOPES,
} from './accounts/schemas.js';
export type {
  SignUpInput,
  LogInInput,
  LogOutInput,
  LogoutScope,
  ChangePasswordInput,
  UpdateAccountInput,
  DeleteAccountInput,
  RequestPasswordResetInput,
  ConfirmPasswordResetInput,
  VerifyEmailInput,
} from './accounts/schemas.js';
export { PublicUserSchema, AccountSchema, SignedInSchema, PublicSessionSchema } from './accounts/response-schemas.js';

// Accounts: use cases
export { signUp, type SignUpRequest } from './accounts/sign-up.js';
export { logIn, type LogInRequest } from './accounts/log-in.js';
export { authenticate, type AuthenticateRequest, type Authenticated } from './accounts/authenticate.js';
export { currentUser, type CurrentUserRequest } from './accounts/current-user.js';
export { currentAccount, type CurrentAccountRequest } from './accounts/current-account.js';
export { logOut, type LogOutRequest } from './accounts/log-out.js';
export { listSessions, type ListSessionsRequest } from './accounts/list-sessions.js';
export { endSession, type EndSessionRequest } from './accounts/end-session.js';
export { refreshSession, type RefreshSessionRequest } from './accounts/refresh-session.js';
export { changePassword, type ChangePasswordRequest } from './accounts/change-password.js';
export { updateAccount, type UpdateAccountRequest } from './accounts/update-account.js';
export { ACCOUNT_DELETION_LEASE_MS, deleteAccount, type DeleteAccountRequest } from './accounts/delete-account.js';
export { requestPasswordReset, type RequestPasswordResetRequest } from './accounts/request-password-reset.js';
export { confirmPasswordReset, type ConfirmPasswordResetRequest } from './accounts/confirm-password-reset.js';
export { verifyEmail, type VerifyEmailRequest } from './accounts/verify-email.js';
export { requestEmailVerification, type RequestEmailVerificationRequest } from './accounts/request-email-verification.js';
export {
  deliverMessage,
  DROP_REASONS,
  type DeliverMessageRequest,
  type DeliveryOutcome,
  type DropReason,
} from './accounts/deliver-message.js';

// Accounts: in-memory adapters
export { createInMemoryUserRepository } from './accounts/in-memory-user-repository.js';
export {
  createInMemoryAttemptLimiter,
  type InMemoryAttemptLimiter,
  type InMemoryAttemptLimiterOptions,
} from './accounts/in-memory-attempt-limiter.js';

// Posts: entities, port, access
export type { Post, NewPost, PostChanges, Pagination, PostPage, PostVersion, VersionedPost } from './posts/post.js';
export { FIRST_POST_VERSION } from './posts/post.js';
export type { PostRepository, IdempotencyStore, IdempotencyReservation, IdempotencyRecord, KeptOutcome } from './posts/ports.js';
export { DEFAULT_SAFE_WRITE_RULES, type SafeWriteRules } from './posts/safe-writes.js';
export {
  POST_ACCESS_MODES,
  POST_USE_CASES,
  openPostAccess,
  ownerPostAccess,
  postAccessPolicy,
  type PostAccessMode,
  type PostAccessPolicy,
  type PostUseCase,
} from './posts/post-access.js';

// Posts: schemas
export { CreatePostSchema, CreateOwnPostSchema, UpdatePostSchema, ListPostsQuerySchema } from './posts/schemas.js';
export type { CreatePostInput, CreateOwnPostInput, UpdatePostInput, ListPostsQuery } from './posts/schemas.js';
export { PostSchema, PaginationSchema, PostPageSchema } from './posts/response-schemas.js';

// Posts: use cases
export { listPublishedPosts, type ListPublishedPostsRequest } from './posts/list-published-posts.js';
export { getPost, type GetPostRequest } from './posts/get-post.js';
export { createPost, type CreatePostRequest } from './posts/create-post.js';
export type { CreatedPost } from './posts/idempotency.js';
export { updatePost, type UpdatePostRequest } from './posts/update-post.js';
export { deletePost, type DeletePostRequest } from './posts/delete-post.js';
export type { PostWriteLimits } from './posts/post-write-limits.js';
export { listOwnPosts, type ListOwnPostsRequest } from './posts/list-own-posts.js';

// Posts: in-memory adapters
export { createInMemoryPostRepository } from './posts/in-memory-post-repository.js';
export {
  createInMemoryIdempotencyStore,
  IN_MEMORY_IDEMPOTENCY_KEYS_MAX,
  type InMemoryIdempotencyStoreOptions,
} from './posts/in-memory-idempotency-store.js';

// Mail: messages, the outbox and the mail sender, the in-memory outbox
export { MESSAGE_KINDS, type MessageKind, type NewMessage, type OutboxMessage } from './mail/message.js';
export type { Outbox, Mail, MailSender, SendOptions } from './mail/ports.js';
export { nextAttemptAfterFailure, FIRST_RETRY_MS, LONGEST_RETRY_GAP_MS, DELIVERY_WINDOW_MS } from './mail/delivery-schedule.js';
export { createInMemoryOutbox } from './mail/in-memory-outbox.js';
