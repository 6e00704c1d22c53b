/**
 * One sign-in of an account (docs/api.md, Sessions): signup and login start one, and every token
 * names the session it belongs to (`sid`). A session is live until it is ended or `expiresAt`
 * passes; an ended or expired session is gone from storage, and its tokens are refused.
 */
export interface Session {
  readonly id: string;
  /** When the login (or signup) that started it happened, in milliseconds since the Unix epoch. */
  readonly createdAt: number;
  /** When it expires unless refreshed; never past `createdAt` plus the sessions' maximum age. */
  readonly expiresAt: number;
}

/** What a repository needs to store a new session; it assigns the id. */
export type NewSession = Omit<Session, 'id'>;

/** A live session as `GET /me/sessions` lists it: never a token or a hash. */
export interface PublicSession extends Session {
  /** Whether the token of the request that asked belongs to this session. */
  readonly current: boolean;
}

/** A token's lifetime (docs/api.md, Tokens): a token expires 7 days after it was issued. */
export const TOKEN_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** How many sessions an account may have and how long one may live, however often it is refreshed. */
export interface SessionRules {
  /** Live sessions per account; a login past it ends the account's oldest session. */
  readonly maxPerUser: number;
  /** A session never lives past its login plus this, refreshed or not. */
  readonly maxAgeMs: number;
}

/** The rules of `SESSIONS_MAX_PER_USER` and `SESSION_MAX_AGE_DAYS` unset: 20 sessions, 30 days. */
export const DEFAULT_SESSION_RULES: SessionRules = { maxPerUser: 20, maxAgeMs: 30 * 24 * 60 * 60 * 1000 };

/**
 * Which sessions of an account to end: one by id, every one but the one kept (`allExcept`, null
 * to keep none), or none; and whether tokens issued without a session end as well.
 */
export interface SessionsToEnd {
  readonly sessions: { readonly only: string } | { readonly allExcept: string | null } | 'none';
  readonly tokensWithoutSession: boolean;
}

/** Whether `which` ends `session`: the one rule every `UserRepository` applies when ending sessions. */
export function endsSession(which: SessionsToEnd, session: Session): boolean {
  const { sessions } = which;
  if (sessions === 'none') return false;
  return 'only' in sessions ? session.id === sessions.only : session.id !== sessions.allExcept;
}

/** The session a token issued `now` starts (or extends to): 7 days, capped at `startedAt` plus the maximum age. */
export function sessionExpiry(startedAt: number, now: number, rules: SessionRules): number {
  return Math.min(now + TOKEN_LIFETIME_MS, startedAt + rules.maxAgeMs);
}

/** A new session started `now`: it expires with its first token, 7 days on (or at the maximum age, if shorter). */
export function newSession(now: number, rules: SessionRules): NewSession {
  return { createdAt: now, expiresAt: sessionExpiry(now, now, rules) };
}

/** Which tokens issued without a session an account still accepts (see `UserWithSession`). */
export interface TokensWithoutSession {
  /** Since when such tokens are refused; null while they are not. */
  readonly tokensWithoutSessionEndedAt: number | null;
  /** The issue time of the one accepted in spite of that (the caller of a password change); null when none is. */
  readonly keptTokenWithoutSession: number | null;
}

/**
 * Whether an account accepts a token without a session issued at `issuedAt`: one issued after the
 * account last ended such tokens, or the one a password change kept. A token carries whole
 * seconds, so one from the very second they ended counts as ended: no token without a session is
 * issued any more.
 */
export function acceptsTokenWithoutSession(account: TokensWithoutSession, issuedAt: number): boolean {
  const endedAt = account.tokensWithoutSessionEndedAt;
  return endedAt === null || issuedAt > endedAt || issuedAt === account.keptTokenWithoutSession;
}
