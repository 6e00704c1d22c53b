import type { NewSession, Session, SessionsToEnd } from './session.js';
import type { NewUser, User } from './user.js';

/**
 * What a token needs checked, read with its user in one go: the live session the token names
 * (null when there is none, or the token names none), and since when tokens issued without a
 * session are refused (null while they are not).
 */
export interface UserWithSession {
  readonly user: User;
  readonly session: Session | null;
  readonly tokensWithoutSessionEndedAt: number | null;
}

/** The account fields `PATCH /me` may change, and the time of the change. */
export interface UserChanges {
  readonly name?: string;
  readonly email?: string;
  readonly updatedAt: number;
}

/**
 * Where users live, each with its sessions. Implementations enforce e-mail uniqueness like a
 * unique index, and change one account's sessions in one atomic step each, so that concurrent
 * logins and logouts, from any number of processes, lose no session and keep none that was ended.
 * Every method that writes sessions also drops the account's expired ones (`now`); an
 * account that is gone is null (or false), never recreated.
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
   * live at `now` (null `sessionId`: none is looked for); null when the user is gone.
   */
  findWithSession(id: string, sessionId: string | null, now: number): Promise<UserWithSession | null>;
  /**
   * Starts a session; past `maxPerUser` live sessions the ones started first end. Null when the
   * user is gone. Sessions keep the order they were started in, which is what "oldest" and
   * "newest" mean for them (two started in the same millisecond still have an order).
   */
  startSession(userId: string, session: NewSession, maxPerUser: number, now: number): Promise<Session | null>;
  /** The user's live sessions, the last started first. */
  listSessions(userId: string, now: number): Promise<Session[]>;
  /** Moves a live session's expiry to `expiresAt`; null when it is not live (ended, expired, unknown). */
  extendSession(userId: string, sessionId: string, expiresAt: number, now: number): Promise<Session | null>;
  /** Ends the sessions `which` selects; answers how many live sessions ended, or null when the user is gone. */
  endSessions(userId: string, which: SessionsToEnd, now: number): Promise<number | null>;
  /**
   * Sets a new password hash and, in the same step, ends every session but `keepSessionId` (null:
   * all of them) and every token issued without a session. Null when the user is gone.
   */
  changePassword(userId: string, passwordHash: string, keepSessionId: string | null, now: number): Promise<User | null>;
  /** Applies the given changes; throws `EmailAlreadyInUse` when the new e-mail is taken; null when the user is gone. */
  update(userId: string, changes: UserChanges): Promise<User | null>;
  /** Deletes the user and its sessions; false when there was none. */
  delete(userId: string): Promise<boolean>;
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
