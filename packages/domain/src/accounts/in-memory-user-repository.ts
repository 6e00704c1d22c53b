import { DomainError } from '../shared/errors.js';
import { uniqueIds } from '../shared/unique-ids.js';
import type { LinkRecord, TokenClaims, UserRepository, Verified } from './ports.js';
import { acceptsTokenWithoutSession, endsSession, type NewSession, type Session } from './session.js';
import type { NewUser, User } from './user.js';

/**
 * An account as this store keeps it: the user, its sessions in the order they started, which
 * tokens without a session it still accepts, until when it is being deleted, when its password
 * last changed, and the mailed links it recorded (their hashes): its live reset links, and its
 * verification link.
 */
interface Account {
  user: User;
  sessions: readonly Session[];
  tokensWithoutSessionEndedAt: number | null;
  keptTokenWithoutSession: number | null;
  deletingUntil: number | null;
  passwordChangedAt: number;
  /** The live password reset links, oldest first. */
  passwordResets: readonly LinkRecord[];
  emailVerification: LinkRecord | null;
}

/**
 * Users and their sessions in process memory. Every method reads and writes an account in one
 * synchronous step, so concurrent calls behave like the atomic updates of a real store: the
 * e-mail check and the write of an insert cannot interleave (exactly one of concurrent signups
 * wins), no session write can overwrite another, and a write checks what its request verified
 * (`Verified`) in the same step as it applies.
 */
export function createInMemoryUserRepository(): UserRepository {
  const byId = new Map<string, Account>();
  const idByEmail = new Map<string, string>();
  // The account that recorded each link, by its token hash, so that a link is found without a scan.
  const idByReset = new Map<string, string>();
  const idByVerification = new Map<string, string>();
  const nextUserId = uniqueIds();
  const nextSessionId = uniqueIds();

  const live = (sessions: readonly Session[], now: number) => sessions.filter((session) => session.expiresAt > now);
  const newSession = (session: NewSession): Session =>
    Object.freeze({ id: nextSessionId(), createdAt: session.createdAt, expiresAt: session.expiresAt });
  const beingDeleted = (account: Account, now: number) => account.deletingUntil !== null && account.deletingUntil > now;
  const accepts = (account: Account, token: TokenClaims, now: number) =>
    token.sessionId === null
      ? acceptsTokenWithoutSession(account, token.issuedAt)
      : account.sessions.some((session) => session.id === token.sessionId && session.expiresAt > now);
  /** The account `userId` names when `requires` (if given) still holds of it at `now`; undefined otherwise. */
  const accountWhere = (userId: string, now: number, requires: Verified | undefined): Account | undefined => {
    const account = byId.get(userId);
    if (!account || requires === undefined) return account;
    if (beingDeleted(account, now)) return undefined;
    if (requires.passwordHash !== undefined && account.user.passwordHash !== requires.passwordHash) return undefined;
    if (requires.token !== undefined && !accepts(account, requires.token, now)) return undefined;
    return account;
  };
  /** Adds `session` to the account's live ones, keeping the last `maxPerUser`; the session, or null if the bound ended it at once. */
  const start = (account: Account, session: NewSession, maxPerUser: number, now: number): Session | null => {
    const started = newSession(session);
    account.sessions = [...live(account.sessions, now), started].slice(-Math.max(1, maxPerUser));
    return account.sessions.includes(started) ? started : null;
  };
  const endTokensWithoutSession = (account: Account, now: number, kept: number | null = null) => {
    account.tokensWithoutSessionEndedAt = now;
    account.keptTokenWithoutSession = kept;
  };
  /** Replaces the account's reset links (an empty list voids them all). */
  const setResets = (account: Account, links: readonly LinkRecord[]) => {
    for (const link of account.passwordResets) idByReset.delete(link.tokenHash);
    account.passwordResets = Object.freeze(links.map((link) => Object.freeze({ ...link })));
    for (const link of account.passwordResets) idByReset.set(link.tokenHash, account.user.id);
  };
  /** Replaces the account's verification link (null: voids it). */
  const setVerification = (account: Account, link: LinkRecord | null) => {
    if (account.emailVerification) idByVerification.delete(account.emailVerification.tokenHash);
    account.emailVerification = link === null ? null : Object.freeze({ ...link });
    if (link) idByVerification.set(link.tokenHash, account.user.id);
  };
  /** Whether `link` works for `account` at `now`: unexpired, sent to the account's e-mail, and no deletion under way. */
  const works = (account: Account, link: LinkRecord | undefined, now: number): link is LinkRecord =>
    link !== undefined && link.expiresAt > now && link.email === account.user.email && !beingDeleted(account, now);
  /** The account whose reset link has this hash, while that link works. */
  const accountByReset = (tokenHash: string, now: number): Account | undefined => {
    const id = idByReset.get(tokenHash);
    const account = id === undefined ? undefined : byId.get(id);
    return account && works(account, account.passwordResets.find((link) => link.tokenHash === tokenHash), now) ? account : undefined;
  };
  /** The account whose verification link has this hash, while that link works. */
  const accountByVerification = (tokenHash: string, now: number): Account | undefined => {
    const id = idByVerification.get(tokenHash);
    const account = id === undefined ? undefined : byId.get(id);
    const link = account?.emailVerification ?? undefined;
    return account && link?.tokenHash === tokenHash && works(account, link, now) ? account : undefined;
  };

  return {
    async insert(newUser: NewUser, session: NewSession) {
      if (idByEmail.has(newUser.email)) throw new DomainError('EmailAlreadyInUse');
      const user: User = Object.freeze({
        id: nextUserId(),
        email: newUser.email,
        name: newUser.name,
        passwordHash: newUser.passwordHash,
        emailVerified: newUser.emailVerified,
        createdAt: newUser.createdAt,
        updatedAt: newUser.updatedAt,
      });
      const first = newSession(session);
      byId.set(user.id, {
        user,
        sessions: [first],
        tokensWithoutSessionEndedAt: null,
        keptTokenWithoutSession: null,
        deletingUntil: null,
        passwordChangedAt: newUser.createdAt,
        passwordResets: [],
        emailVerification: null,
      });
      idByEmail.set(user.email, user.id);
      return { user, session: first };
    },
    async findByEmail(email) {
      const id = idByEmail.get(email);
      return id === undefined ? null : (byId.get(id)?.user ?? null);
    },
    async findById(id) {
      return byId.get(id)?.user ?? null;
    },
    async findWithSession(id, sessionId, now) {
      const account = byId.get(id);
      if (!account || beingDeleted(account, now)) return null;
      const session = sessionId === null ? undefined : account.sessions.find((s) => s.id === sessionId && s.expiresAt > now);
      const { user, tokensWithoutSessionEndedAt, keptTokenWithoutSession } = account;
      return { user, session: session ?? null, tokensWithoutSessionEndedAt, keptTokenWithoutSession };
    },
    async startSession(userId, session, maxPerUser, now, requires) {
      const account = accountWhere(userId, now, requires);
      return account ? start(account, session, maxPerUser, now) : null;
    },
    async exchangeTokenWithoutSession(userId, issuedAt, session, maxPerUser, now) {
      const account = accountWhere(userId, now, { token: { userId, sessionId: null, issuedAt } });
      if (!account) return null;
      endTokensWithoutSession(account, now);
      return start(account, session, maxPerUser, now);
    },
    async listSessions(userId, now) {
      return live(byId.get(userId)?.sessions ?? [], now).reverse();
    },
    async extendSession(userId, sessionId, expiresAt, now) {
      const account = byId.get(userId);
      const current = account?.sessions.find((s) => s.id === sessionId && s.expiresAt > now);
      if (!account || !current) return null;
      const extended: Session = Object.freeze({ ...current, expiresAt });
      account.sessions = live(account.sessions, now).map((s) => (s === current ? extended : s));
      return extended;
    },
    async endSessions(userId, which, now, requires) {
      const account = accountWhere(userId, now, requires);
      if (!account) return null;
      const before = live(account.sessions, now);
      account.sessions = before.filter((session) => !endsSession(which, session));
      if (which.tokensWithoutSession) endTokensWithoutSession(account, now);
      return before.length - account.sessions.length;
    },
    async changePassword(userId, passwordHash, caller, now, requires) {
      const account = accountWhere(userId, now, requires);
      if (!account) return null;
      account.user = Object.freeze({ ...account.user, passwordHash, updatedAt: Math.max(now, account.user.updatedAt) });
      const keptSessionId = caller?.sessionId ?? null;
      account.sessions = live(account.sessions, now).filter((session) => session.id === keptSessionId);
      endTokensWithoutSession(account, now, caller !== null && caller.sessionId === null ? caller.issuedAt : null);
      account.passwordChangedAt = now;
      setResets(account, []);
      return account.user;
    },
    async update(userId, changes, requires) {
      const account = accountWhere(userId, changes.updatedAt, requires);
      if (!account) return null;
      const { email = account.user.email, name = account.user.name, updatedAt } = changes;
      const owner = idByEmail.get(email);
      if (owner !== undefined && owner !== userId) throw new DomainError('EmailAlreadyInUse');
      const moved = email !== account.user.email;
      idByEmail.delete(account.user.email);
      idByEmail.set(email, userId);
      account.user = Object.freeze({ ...account.user, email, name, updatedAt: Math.max(updatedAt, account.user.updatedAt), emailVerified: account.user.emailVerified && !moved });
      if (moved) {
        setResets(account, []);
        setVerification(account, null);
      }
      return account.user;
    },
    async startDeletion(userId, until, now, requires) {
      const account = accountWhere(userId, now, requires);
      if (!account) return false;
      account.deletingUntil = until;
      return true;
    },
    async cancelDeletion(userId) {
      const account = byId.get(userId);
      if (account) account.deletingUntil = null;
    },
    async delete(userId) {
      const account = byId.get(userId);
      if (!account) return false;
      setResets(account, []);
      setVerification(account, null);
      byId.delete(userId);
      idByEmail.delete(account.user.email);
      return true;
    },
    async recordPasswordReset(reset, keep, now) {
      const id = idByEmail.get(reset.email);
      const account = id === undefined ? undefined : byId.get(id);
      if (!account) return null;
      if (beingDeleted(account, now) || account.passwordChangedAt >= reset.requestedAt) return { user: account.user, recorded: false };
      const others = account.passwordResets.filter((link) => link.expiresAt > now && link.tokenHash !== reset.tokenHash);
      const kept = [...others, reset].sort((a, b) => a.requestedAt - b.requestedAt).slice(-Math.max(1, keep));
      setResets(account, kept);
      return { user: account.user, recorded: kept.some((link) => link.tokenHash === reset.tokenHash) };
    },
    async findByPasswordReset(tokenHash, now) {
      return accountByReset(tokenHash, now)?.user ?? null;
    },
    async resetPassword(userId, tokenHash, passwordHash, session, now) {
      const account = accountByReset(tokenHash, now);
      if (!account || account.user.id !== userId) return null;
      account.user = Object.freeze({ ...account.user, passwordHash, emailVerified: true, updatedAt: Math.max(now, account.user.updatedAt) });
      account.sessions = [];
      endTokensWithoutSession(account, now);
      account.passwordChangedAt = now;
      setResets(account, []);
      setVerification(account, null);
      const started = start(account, session, 1, now);
      return started && { user: account.user, session: started };
    },
    async recordEmailVerification(userId, verification, now) {
      const account = byId.get(userId);
      if (!account || beingDeleted(account, now) || account.user.email !== verification.email) return null;
      const recorded = account.emailVerification;
      // None asked for later is recorded (the same one again may be: a retried delivery).
      const newest = recorded === null || recorded.requestedAt < verification.requestedAt || recorded.tokenHash === verification.tokenHash;
      if (account.user.emailVerified || !newest) return null;
      setVerification(account, verification);
      return account.user;
    },
    async verifyEmail(tokenHash, now) {
      const account = accountByVerification(tokenHash, now);
      if (!account) return null;
      account.user = Object.freeze({ ...account.user, emailVerified: true, updatedAt: Math.max(now, account.user.updatedAt) });
      setVerification(account, null);
      return account.user;
    },
    async removeExpiredSessions(now) {
      for (const account of byId.values()) account.sessions = live(account.sessions, now);
    },
  };
}
