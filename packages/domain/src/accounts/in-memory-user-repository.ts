import { DomainError } from '../shared/errors.js';
import { uniqueIds } from '../shared/unique-ids.js';
import type { UserRepository } from './ports.js';
import { endsSession, type NewSession, type Session } from './session.js';
import type { NewUser, User } from './user.js';

/** An account as this store keeps it: the user, its sessions in the order they started, and when sessionless tokens ended. */
interface Account {
  user: User;
  sessions: readonly Session[];
  tokensWithoutSessionEndedAt: number | null;
}

/**
 * Users and their sessions in process memory. Every method reads and writes an account in one
 * synchronous step, so concurrent calls behave like the atomic updates of a real store: the
 * e-mail check and the write of an insert cannot interleave (exactly one of concurrent signups
 * wins), and no session write can overwrite another.
 */
export function createInMemoryUserRepository(): UserRepository {
  const byId = new Map<string, Account>();
  const idByEmail = new Map<string, string>();
  const nextUserId = uniqueIds();
  const nextSessionId = uniqueIds();

  const live = (sessions: readonly Session[], now: number) => sessions.filter((session) => session.expiresAt > now);
  const newSession = (session: NewSession): Session =>
    Object.freeze({ id: nextSessionId(), createdAt: session.createdAt, expiresAt: session.expiresAt });

  return {
    async insert(newUser: NewUser, session: NewSession) {
      if (idByEmail.has(newUser.email)) throw new DomainError('EmailAlreadyInUse');
      const user: User = Object.freeze({
        id: nextUserId(),
        email: newUser.email,
        name: newUser.name,
        passwordHash: newUser.passwordHash,
        createdAt: newUser.createdAt,
        updatedAt: newUser.updatedAt,
      });
      const first = newSession(session);
      byId.set(user.id, { user, sessions: [first], tokensWithoutSessionEndedAt: null });
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
      if (!account) return null;
      const session = sessionId === null ? undefined : account.sessions.find((s) => s.id === sessionId && s.expiresAt > now);
      return { user: account.user, session: session ?? null, tokensWithoutSessionEndedAt: account.tokensWithoutSessionEndedAt };
    },
    async startSession(userId, session, maxPerUser, now) {
      const account = byId.get(userId);
      if (!account) return null;
      const started = newSession(session);
      account.sessions = [...live(account.sessions, now), started].slice(-Math.max(1, maxPerUser));
      return account.sessions.includes(started) ? started : null;
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
    async endSessions(userId, which, now) {
      const account = byId.get(userId);
      if (!account) return null;
      const before = live(account.sessions, now);
      account.sessions = before.filter((session) => !endsSession(which, session));
      if (which.tokensWithoutSession) account.tokensWithoutSessionEndedAt = now;
      return before.length - account.sessions.length;
    },
    async changePassword(userId, passwordHash, keepSessionId, now) {
      const account = byId.get(userId);
      if (!account) return null;
      account.user = Object.freeze({ ...account.user, passwordHash, updatedAt: now });
      account.sessions = live(account.sessions, now).filter((session) => session.id === keepSessionId);
      account.tokensWithoutSessionEndedAt = now;
      return account.user;
    },
    async update(userId, changes) {
      const account = byId.get(userId);
      if (!account) return null;
      const { email = account.user.email, name = account.user.name, updatedAt } = changes;
      const owner = idByEmail.get(email);
      if (owner !== undefined && owner !== userId) throw new DomainError('EmailAlreadyInUse');
      idByEmail.delete(account.user.email);
      idByEmail.set(email, userId);
      account.user = Object.freeze({ ...account.user, email, name, updatedAt });
      return account.user;
    },
    async delete(userId) {
      const account = byId.get(userId);
      if (!account) return false;
      byId.delete(userId);
      idByEmail.delete(account.user.email);
      return true;
    },
    async removeExpiredSessions(now) {
      for (const account of byId.values()) account.sessions = live(account.sessions, now);
    },
  };
}
