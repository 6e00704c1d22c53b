import type { NewSession, Session, SessionsToEnd } from './session.js';
import type { NewUser, User } from './user.js';

/**
 * What a token needs checked, read with its user in one go: the live session the token names
 * (null when there is none, or the token names none), and which tokens issued without a session
 * are still accepted (`acceptsTokenWithoutSession`).
 */
export interface UserWithSession {
  readonly user: User;
  readonly session: Session | null;
  /** Since when tokens issued without a session are refused; null while they are not. */
  readonly tokensWithoutSessionEndedAt: number | null;
  /**
   * The one token without a session still accepted although they ended, by the time it was issued:
   * the one a password change was made with, whose holder the change keeps signed in. Null when none is.
   */
  readonly keptTokenWithoutSession: number | null;
}

/**
 * What a request verified before it writes, which the write checks again in the same atomic step:
 * the stored password hash it checked a password against is still the account's, and the token
 * it came with is still accepted (its session live or, for a token without one, not ended since).
 * A write whose request's checks no longer hold changes nothing.
 */
export interface Verified {
  /** The stored hash a password of the request was checked against (a login's, a current password's). */
  readonly passwordHash?: string;
  /** What the token the request came with says. */
  readonly token?: TokenClaims;
}

/**
 * A mailed link as its account keeps it (a password reset, an e-mail verification): never the
 * token, only its hash, with the address the link was sent to and its times.
 */
export interface LinkRecord {
  /** SHA-256 of the link's token, base64url (`hashLinkToken`). */
  readonly tokenHash: string;
  /** The address the link was sent to: the link works only while the account still has it. */
  readonly email: string;
  /**
   * When the link was asked for: a password change after it ends a reset link; a verification
   * link asked for later replaces a verification link.
   */
  readonly requestedAt: number;
  /** When the link stops working. */
  readonly expiresAt: number;
}

/** The account fields `PATCH /me` may change, and the time of the change. */
export interface UserChanges {
  readonly name?: string;
  readonly email?: string;
  /** When the change is made: the time at which what its request verified is judged. */
  readonly updatedAt: number;
}

/**
 * Where users live, each with its sessions. Implementations enforce e-mail uniqueness like a
 * unique index, and change one account's sessions in one atomic step each, so that concurrent
 * logins and logouts, from any number of processes, lose no session and keep none that was ended.
 * Every method that writes sessions also drops the account's expired ones (`now`); an
 * account that is gone is null (or false), never recreated.
 *
 * A write that takes `requires` applies only while what its request verified still holds
 * (`Verified`) and no deletion of the account is under way (`startDeletion`), checked in the same
 * atomic step as the write; otherwise it changes nothing and answers null (or false), as for an
 * account that is gone.
 */
export interface UserRepository {
  /** Stores a new user with its first session; throws `DomainError('EmailAlreadyInUse')` when the e-mail is taken. */
  insert(user: NewUser, session: NewSession): Promise<{ readonly user: User; readonly session: Session }>;
  /** The user with this (already normalised) e-mail, or null. */
  findByEmail(email: string): Promise<User | null>;
  /** The user with this id, or null for any id that names no user (including malformed ones). */
  findById(id: string): Promise<User | null>;
  /**
   * The user with this id and, in the same single read, the session `sessionId` names if it is
   * live at `now` (null `sessionId`: none is looked for); null when the user is gone, or is being
   * deleted at `now`.
   */
  findWithSession(id: string, sessionId: string | null, now: number): Promise<UserWithSession | null>;
  /**
   * Starts a session; past `maxPerUser` live sessions the ones started first end. Null when the
   * user is gone, or `requires` no longer holds. Sessions keep the order they were started in,
   * which is what "oldest" and "newest" mean for them (two started in the same millisecond still
   * have an order).
   */
  startSession(userId: string, session: NewSession, maxPerUser: number, now: number, requires?: Verified): Promise<Session | null>;
  /**
   * Starts a session, as `startSession` does, in exchange for the token without a session issued
   * at `issuedAt`, while that token is still accepted; in the same step every token without a
   * session ends, so one of them starts at most one session. Null when the user is gone, the token
   * is no longer accepted or the account is being deleted.
   */
  exchangeTokenWithoutSession(userId: string, issuedAt: number, session: NewSession, maxPerUser: number, now: number): Promise<Session | null>;
  /** The user's live sessions, the last started first. */
  listSessions(userId: string, now: number): Promise<Session[]>;
  /** Moves a live session's expiry to `expiresAt`; null when it is not live (ended, expired, unknown). */
  extendSession(userId: string, sessionId: string, expiresAt: number, now: number): Promise<Session | null>;
  /**
   * Ends the sessions `which` selects; answers how many live sessions ended, or null when the user
   * is gone or `requires` no longer holds.
   */
  endSessions(userId: string, which: SessionsToEnd, now: number, requires?: Verified): Promise<number | null>;
  /**
   * Sets a new password hash and, in the same step, ends every session and every token issued
   * without a session but the `caller`'s (null: all of them), voids every recorded password reset
   * link and records `now` as the last password change (a reset asked for before it is never recorded).
   * Null when the user is gone, or `requires` no longer holds.
   */
  changePassword(userId: string, passwordHash: string, caller: TokenClaims | null, now: number, requires?: Verified): Promise<User | null>;
  /**
   * Applies the given changes; throws `EmailAlreadyInUse` when the new e-mail is taken (and
   * `requires` holds); null when the user is gone, or `requires` no longer holds. A new e-mail
   * (another than the account's) makes the account unverified and, in the same step, voids the
   * links recorded for the old one (`recordPasswordReset`, `recordEmailVerification`).
   */
  update(userId: string, changes: UserChanges, requires?: Verified): Promise<User | null>;
  /**
   * Marks the account as being deleted until `until`, while `requires` holds and no other deletion
   * is under way: from then on it reads as gone (`findWithSession`), and no write that takes
   * `requires` applies to it, until `delete` removes it, `cancelDeletion` lifts the mark, or
   * `until` passes (a deletion whose process died midway leaves the account as it was). False
   * when the user is gone or the mark was not set.
   */
  startDeletion(userId: string, until: number, now: number, requires: Verified): Promise<boolean>;
  /** Lifts the mark of `startDeletion`: the account is as it was (a deletion that failed midway). */
  cancelDeletion(userId: string): Promise<void>;
  /** Deletes the user and its sessions, whether or not a deletion was started; false when there was none. */
  delete(userId: string): Promise<boolean>;
  /**
   * Records a password reset link sent to the account that has the address `reset.email`, beside
   * the links it has, in one atomic step, only while its password last changed before
   * `reset.requestedAt` (for an account whose password never changed: its creation) and no
   * deletion is under way at `now`. A link asked for later never ends an earlier one: the account
   * keeps its live links, the newest `keep` of them (expired ones go, and past `keep` the oldest),
   * and the same link again (a retried delivery) is kept once. The look-up is by address, in the
   * same step, so that an address with an account costs no more work than one without: null when
   * no account has the address; otherwise the account and whether the link is recorded.
   */
  recordPasswordReset(reset: LinkRecord, keep: number, now: number): Promise<{ readonly user: User; readonly recorded: boolean } | null>;
  /**
   * The account one of whose recorded password reset links has this token hash, while that link
   * is unexpired at `now` and the account's e-mail is still the one it was sent to; null otherwise.
   */
  findByPasswordReset(tokenHash: string, now: number): Promise<User | null>;
  /**
   * Consumes the recorded password reset link with this token hash, in one atomic step, while it
   * is recorded, unexpired at `now`, sent to the account's e-mail, and no deletion is under way:
   * sets `passwordHash`, voids every reset link of the account (the password changed), marks the
   * e-mail verified, ends every session and every token issued without a session, starts `session`
   * (the only one), and records `now` as the last password change. The account and its new
   * session, or null when nothing was consumed.
   */
  resetPassword(
    userId: string,
    tokenHash: string,
    passwordHash: string,
    session: NewSession,
    now: number,
  ): Promise<{ readonly user: User; readonly session: Session } | null>;
  /**
   * Records an e-mail verification link sent to the account, replacing the one recorded, in one
   * atomic step, only while: the account's e-mail is `verification.email` and is not verified;
   * no verification asked for later is recorded (the same one again is fine); and no deletion is
   * under way at `now`. The account, or null when any of it fails or the user is gone.
   */
  recordEmailVerification(userId: string, verification: LinkRecord, now: number): Promise<User | null>;
  /**
   * Consumes the recorded e-mail verification with this token hash, in one atomic step, while it
   * is unexpired at `now`, sent to the account's e-mail, and no deletion is under way: marks the
   * e-mail verified and voids the link. The account, or null when nothing was consumed.
   */
  verifyEmail(tokenHash: string, now: number): Promise<User | null>;
  /** Drops every account's sessions that expired by `now` (housekeeping; reads never count on it). */
  removeExpiredSessions(now: number): Promise<void>;
}

/** One-way password hashing at the spec's work factor. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, passwordHash: string): Promise<boolean>;
  /**
   * A hash of the same cost that no password matches: login verifies against it when the
   * e-mail is unknown, so an unknown e-mail costs the same time as a wrong password.
   */
  readonly dummyHash: string;
}

/** What a token says: whose it is, the session it belongs to, and when it was issued. */
export interface TokenClaims {
  readonly userId: string;
  /** The session (`sid`); null for a token issued before tokens named sessions. */
  readonly sessionId: string | null;
  /** When it was issued, in milliseconds (a token carries whole seconds). */
  readonly issuedAt: number;
}

/** What a new token says, and when it expires. */
export interface NewToken {
  readonly userId: string;
  readonly sessionId: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/** Issues and checks the signed access tokens. */
export interface TokenService {
  /** A signed token with `sub` (the user), `sid` (the session), `iat` and `exp` from `token`'s times. */
  issue(token: NewToken): Promise<string>;
  /** What a valid, unexpired token says, or null for any token that fails verification. */
  verify(token: string): Promise<TokenClaims | null>;
}

/**
 * The posts an account is the author of, as deleting the account needs them: every post whose
 * `authorId` is its id goes with it. The posts' own port, `PostRepository`, is one.
 */
export interface AuthoredPosts {
  /** Deletes every post whose `authorId` is `authorId`; answers how many. */
  deleteByAuthor(authorId: string): Promise<number>;
}
