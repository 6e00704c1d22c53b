import { beforeEach, describe, expect, it } from 'vitest';
import type { LinkRecord, TokenClaims, UserRepository } from '../accounts/ports.js';
import type { NewSession, Session } from '../accounts/session.js';
import type { NewUser, User } from '../accounts/user.js';
import { isDomainError } from '../shared/errors.js';
import { idsThatNameNothing } from './ids.js';

const T0 = 1_767_225_600_000;
const DAY = 24 * 60 * 60 * 1000;

function newUser(overrides: Partial<NewUser> = {}): NewUser {
  return {
    email: 'alice@example.com',
    name: 'Alice',
    passwordHash: '$2b$12$abcdefghijklmnopqrstuu5Z7b7nU6ZqGQw0b0p8k0nqzJ1m5m7a',
    emailVerified: false,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** A session started at `createdAt`, living a week. */
const sessionAt = (createdAt: number, lifetime = 7 * DAY): NewSession => ({ createdAt, expiresAt: createdAt + lifetime });

const MINUTE = 60 * 1000;
/** The live reset links an account keeps in these tests but where one says otherwise. */
const KEEP = 5;

/** What a token of `session` (or, given a time, a token without a session issued then) says. */
const tokenOf = (userId: string, session: Session | number): TokenClaims =>
  typeof session === 'number' ? { userId, sessionId: null, issuedAt: session } : { userId, sessionId: session.id, issuedAt: session.createdAt };

/** A mailed link to alice's address with the hash `tokenHash`, asked for at `requestedAt`, living 30 minutes. */
const link = (tokenHash: string, requestedAt = T0 + 10, overrides: Partial<LinkRecord> = {}): LinkRecord => ({
  tokenHash,
  email: 'alice@example.com',
  requestedAt,
  expiresAt: requestedAt + 30 * 60 * 1000,
  ...overrides,
});

/** Exactly the seven fields of a stored user, never a session or a link. */
const USER_FIELDS = ['createdAt', 'email', 'emailVerified', 'id', 'name', 'passwordHash', 'updatedAt'];

/**
 * The behaviour every `UserRepository` must have, sessions included. `makeRepository` is called
 * before each test and must return a repository over an empty store.
 */
export function describeUserRepositoryContract(
  adapterName: string,
  makeRepository: () => UserRepository | Promise<UserRepository>,
): void {
  describe(`UserRepository contract: ${adapterName}`, () => {
    let users: UserRepository;
    beforeEach(async () => {
      users = await makeRepository();
    });

    /** Inserts a user (alice by default) with a first session at T0; answers both. */
    const inserted = (overrides: Partial<NewUser> = {}, session = sessionAt(T0)) => users.insert(newUser(overrides), session);
    const liveIds = async (userId: string, now = T0) => (await users.listSessions(userId, now)).map((s) => s.id);

    describe('users', () => {
      it('stores a user with its first session, assigning non-empty string ids', async () => {
        const { user, session } = await inserted();
        expect(user).toStrictEqual({ ...newUser(), id: expect.any(String) });
        expect(session).toStrictEqual({ ...sessionAt(T0), id: expect.any(String) });
        expect(user.id.length).toBeGreaterThan(0);
        expect(session.id.length).toBeGreaterThan(0);
        expect(await users.listSessions(user.id, T0)).toStrictEqual([session]);
      });

      it('finds a stored user by id and by e-mail, field for field, without its sessions', async () => {
        const { user } = await inserted();
        await users.startSession(user.id, sessionAt(T0 + 1), 20, T0 + 1);
        for (const found of [await users.findById(user.id), await users.findByEmail('alice@example.com')]) {
          expect(found).toStrictEqual(user);
          expect(Object.keys(found as User).sort()).toEqual(USER_FIELDS);
        }
      });

      it('gives distinct ids to distinct users and sessions', async () => {
        const a = await inserted({ email: 'a@example.com' });
        const b = await inserted({ email: 'b@example.com' });
        expect(a.user.id).not.toBe(b.user.id);
        expect(a.session.id).not.toBe(b.session.id);
      });

      it('never hands out an id another store handed out: a store over the same data after a restart, or another process', async () => {
        const before = await inserted();
        const startedBefore = await users.startSession(before.user.id, sessionAt(T0 + 1), 20, T0 + 1);
        // A store made again (for a store kept in memory: a new process with nothing of the
        // old one) hands out ids of its own, so nothing the earlier ids named is found in it.
        const after = await makeRepository();
        const again = await after.insert(newUser(), sessionAt(T0 + 2));
        const startedAfter = await after.startSession(again.user.id, sessionAt(T0 + 3), 20, T0 + 3);
        expect(again.user.id).not.toBe(before.user.id);
        expect([again.session.id, startedAfter?.id]).not.toContain(before.session.id);
        expect([again.session.id, startedAfter?.id]).not.toContain(startedBefore?.id);
        expect(await after.findById(before.user.id)).toBeNull();
        expect((await after.findWithSession(again.user.id, before.session.id, T0 + 3))?.session).toBeNull();
      });

      it('answers null for an e-mail nobody has', async () => {
        await inserted();
        expect(await users.findByEmail('bob@example.com')).toBeNull();
      });

      it('answers null (or false) for ids that name no user, including malformed ones, and changes nothing', async () => {
        const { user, session } = await inserted();
        for (const id of idsThatNameNothing) {
          expect(await users.findById(id)).toBeNull();
          expect(await users.findWithSession(id, session.id, T0)).toBeNull();
          expect(await users.startSession(id, sessionAt(T0), 20, T0)).toBeNull();
          expect(await users.listSessions(id, T0)).toEqual([]);
          expect(await users.extendSession(id, session.id, T0 + DAY, T0)).toBeNull();
          expect(await users.endSessions(id, { sessions: { allExcept: null }, tokensWithoutSession: true }, T0)).toBeNull();
          expect(await users.changePassword(id, 'hash', null, T0)).toBeNull();
          expect(await users.exchangeTokenWithoutSession(id, T0 - 1000, sessionAt(T0), 20, T0)).toBeNull();
          expect(await users.startDeletion(id, T0 + MINUTE, T0, {})).toBe(false);
          await users.cancelDeletion(id);
          expect(await users.update(id, { name: 'X', updatedAt: T0 })).toBeNull();
          expect(await users.delete(id)).toBe(false);
        }
        expect(await users.findWithSession(user.id, session.id, T0)).toStrictEqual({ user, session, tokensWithoutSessionEndedAt: null, keptTokenWithoutSession: null });
      });

      it('refuses a second user with the same e-mail with EmailAlreadyInUse and keeps the first', async () => {
        const first = await inserted();
        const error = await inserted({ name: 'Mallory' }).catch((e: unknown) => e);
        expect(isDomainError(error, 'EmailAlreadyInUse')).toBe(true);
        expect(await users.findByEmail('alice@example.com')).toStrictEqual(first.user);
        expect(await liveIds(first.user.id)).toEqual([first.session.id]);
      });

      it('lets exactly one of many concurrent inserts with one e-mail win', async () => {
        const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => inserted({ name: `User ${i}` })));
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r) => r.status === 'rejected');
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(19);
        for (const r of lost) expect(isDomainError(r.reason, 'EmailAlreadyInUse')).toBe(true);
      });

      it('changes the name and the e-mail; the old e-mail is free and the new one finds the user', async () => {
        const { user, session } = await inserted();
        const renamed = await users.update(user.id, { name: 'Alicia', updatedAt: T0 + 1 });
        expect(renamed).toStrictEqual({ ...user, name: 'Alicia', updatedAt: T0 + 1 });
        const moved = await users.update(user.id, { email: 'alicia@example.com', updatedAt: T0 + 2 });
        expect(moved).toStrictEqual({ ...user, name: 'Alicia', email: 'alicia@example.com', updatedAt: T0 + 2 });
        expect(await users.findByEmail('alicia@example.com')).toStrictEqual(moved);
        expect(await users.findByEmail('alice@example.com')).toBeNull();
        expect((await inserted({ name: 'New Alice' })).user.email).toBe('alice@example.com');
        expect(await liveIds(user.id)).toEqual([session.id]);
      });

      it('refuses an e-mail another user has with EmailAlreadyInUse, changing nothing; its own e-mail is fine', async () => {
        const alice = await inserted();
        const bob = await inserted({ email: 'bob@example.com', name: 'Bob' });
        const error = await users.update(alice.user.id, { name: 'Mallory', email: 'bob@example.com', updatedAt: T0 + 1 }).catch((e: unknown) => e);
        expect(isDomainError(error, 'EmailAlreadyInUse')).toBe(true);
        expect(await users.findById(alice.user.id)).toStrictEqual(alice.user);
        expect(await users.findByEmail('bob@example.com')).toStrictEqual(bob.user);
        expect(await users.update(alice.user.id, { email: 'alice@example.com', updatedAt: T0 + 2 })).toStrictEqual({ ...alice.user, updatedAt: T0 + 2 });
      });

      it('lets exactly one of concurrent moves to one e-mail win', async () => {
        const movers = await Promise.all(Array.from({ length: 5 }, (_, i) => inserted({ email: `u${i}@example.com` })));
        const results = await Promise.allSettled(movers.map(({ user }) => users.update(user.id, { email: 'taken@example.com', updatedAt: T0 + 1 })));
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        for (const r of results) if (r.status === 'rejected') expect(isDomainError(r.reason, 'EmailAlreadyInUse')).toBe(true);
      });

      it('deletes a user with its sessions once, and frees its e-mail', async () => {
        const { user, session } = await inserted();
        expect(await users.delete(user.id)).toBe(true);
        expect(await users.findById(user.id)).toBeNull();
        expect(await users.findByEmail('alice@example.com')).toBeNull();
        expect(await users.findWithSession(user.id, session.id, T0)).toBeNull();
        expect(await users.listSessions(user.id, T0)).toEqual([]);
        expect(await users.delete(user.id)).toBe(false);
        const again = await inserted();
        expect(again.user.id).not.toBe(user.id);
      });

      it('never sets updatedAt earlier than the stored one: a write whose time is earlier (computed before another write stored a later one) keeps it', async () => {
        // Each write, on an account of its own whose stored updatedAt is LATER, is handed an
        // earlier time, as a write held between its read and its write, or made by a process
        // whose clock is behind, is.
        const LATER = T0 + 50;
        const writes: Record<string, (user: User, session: Session) => Promise<User | { user: User } | null>> = {
          update: (user) => users.update(user.id, { name: 'Alicia', updatedAt: T0 + 10 }),
          changePassword: (user, session) => users.changePassword(user.id, 'new-hash', tokenOf(user.id, session), T0 + 10, { token: tokenOf(user.id, session) }),
          resetPassword: async (user) => {
            await users.recordPasswordReset(link('r', T0 + 5, { email: user.email }), KEEP, T0 + 5);
            return users.resetPassword(user.id, 'r', 'new-hash', sessionAt(T0 + 10), T0 + 10);
          },
          verifyEmail: async (user) => {
            await users.recordEmailVerification(user.id, link('v', T0 + 5, { email: user.email }), T0 + 5);
            return users.verifyEmail('v', T0 + 10);
          },
        };
        const seen: Record<string, unknown> = {};
        for (const [write, run] of Object.entries(writes)) {
          const { user, session } = await inserted({ email: `${write.toLowerCase()}@example.com`, updatedAt: LATER });
          const answered = await run(user, session);
          const answer = answered !== null && 'user' in answered ? answered.user : answered;
          seen[write] = { answered: answer?.updatedAt, stored: (await users.findById(user.id))?.updatedAt };
        }
        expect(seen).toStrictEqual(Object.fromEntries(Object.keys(writes).map((write) => [write, { answered: LATER, stored: LATER }])));
      });
    });

    describe('sessions', () => {
      it('reads a user and the live session a token names in one call', async () => {
        const { user, session } = await inserted();
        expect(await users.findWithSession(user.id, session.id, T0)).toStrictEqual({ user, session, tokensWithoutSessionEndedAt: null, keptTokenWithoutSession: null });
        expect(await users.findWithSession(user.id, null, T0)).toStrictEqual({ user, session: null, tokensWithoutSessionEndedAt: null, keptTokenWithoutSession: null });
        for (const unknown of ['nope', '', `${session.id}x`, '{"$ne":null}']) {
          expect(await users.findWithSession(user.id, unknown, T0)).toStrictEqual({ user, session: null, tokensWithoutSessionEndedAt: null, keptTokenWithoutSession: null });
        }
      });

      it('treats a session as gone from the moment it expires', async () => {
        const { user, session } = await inserted();
        expect((await users.findWithSession(user.id, session.id, session.expiresAt - 1))?.session).toStrictEqual(session);
        expect((await users.findWithSession(user.id, session.id, session.expiresAt))?.session).toBeNull();
        expect(await users.listSessions(user.id, session.expiresAt)).toEqual([]);
      });

      it("does not find another user's session", async () => {
        const alice = await inserted();
        const bob = await inserted({ email: 'bob@example.com' });
        expect((await users.findWithSession(alice.user.id, bob.session.id, T0))?.session).toBeNull();
      });

      it('starts sessions and lists the live ones newest first', async () => {
        const { user, session } = await inserted();
        const second = await users.startSession(user.id, sessionAt(T0 + 10), 20, T0 + 10);
        const third = await users.startSession(user.id, sessionAt(T0 + 20), 20, T0 + 20);
        expect(second).toStrictEqual({ ...sessionAt(T0 + 10), id: expect.any(String) });
        expect(await users.listSessions(user.id, T0 + 20)).toStrictEqual([third, second, session]);
      });

      it('ends the oldest sessions past the bound, and never counts expired ones', async () => {
        const { user, session: first } = await inserted();
        const started: Session[] = [first];
        for (let i = 1; i <= 4; i++) started.push((await users.startSession(user.id, sessionAt(T0 + i), 3, T0 + i)) as Session);
        expect(await liveIds(user.id, T0 + 4)).toEqual([started[4], started[3], started[2]].map((s) => s?.id));
        // A week later every one has expired: a new one has the account to itself, well under the bound.
        const later = T0 + 8 * DAY;
        const fresh = (await users.startSession(user.id, sessionAt(later), 3, later)) as Session;
        expect(await liveIds(user.id, later)).toEqual([fresh.id]);
      });

      it('removes expired sessions from storage whenever it writes the account', async () => {
        const { user, session } = await inserted({}, sessionAt(T0, DAY));
        await users.startSession(user.id, sessionAt(T0 + 2 * DAY), 20, T0 + 2 * DAY);
        // Asked about a moment it was still live: it is gone, not merely past its expiry.
        expect((await users.findWithSession(user.id, session.id, T0 + 1))?.session).toBeNull();
      });

      it('removes expired sessions of every account on request', async () => {
        const alice = await inserted({}, sessionAt(T0, DAY));
        const bob = await inserted({ email: 'bob@example.com' }, sessionAt(T0, 3 * DAY));
        await users.removeExpiredSessions(T0 + 2 * DAY);
        expect((await users.findWithSession(alice.user.id, alice.session.id, T0 + 1))?.session).toBeNull();
        expect((await users.findWithSession(bob.user.id, bob.session.id, T0 + 1))?.session).toStrictEqual(bob.session);
      });

      it('loses no session when many start at once', async () => {
        const { user, session } = await inserted();
        const started = await Promise.all(Array.from({ length: 19 }, (_, i) => users.startSession(user.id, sessionAt(T0 + i), 20, T0 + 20)));
        expect(started.every((s) => s !== null)).toBe(true);
        expect((await liveIds(user.id, T0 + 20)).sort()).toEqual([session, ...(started as Session[])].map((s) => s.id).sort());
      });

      it('keeps exactly the bound when more start at once than it allows', async () => {
        const { user } = await inserted();
        await Promise.all(Array.from({ length: 30 }, (_, i) => users.startSession(user.id, sessionAt(T0 + 1 + i), 20, T0 + 40)));
        expect(await liveIds(user.id, T0 + 40)).toHaveLength(20);
      });

      it('extends a live session, and only a live one', async () => {
        const { user, session } = await inserted();
        const extended = await users.extendSession(user.id, session.id, session.expiresAt + DAY, T0 + DAY);
        expect(extended).toStrictEqual({ ...session, expiresAt: session.expiresAt + DAY });
        expect((await users.findWithSession(user.id, session.id, session.expiresAt + 1))?.session).toStrictEqual(extended);
        expect(await users.extendSession(user.id, 'nope', T0 + 30 * DAY, T0)).toBeNull();
        expect(await users.extendSession(user.id, session.id, T0 + 30 * DAY, session.expiresAt + DAY)).toBeNull();
        await users.endSessions(user.id, { sessions: { only: session.id }, tokensWithoutSession: false }, T0);
        expect(await users.extendSession(user.id, session.id, T0 + 30 * DAY, T0)).toBeNull();
      });

      it('ends one session by id and answers how many ended', async () => {
        const { user, session } = await inserted();
        const other = (await users.startSession(user.id, sessionAt(T0 + 1), 20, T0 + 1)) as Session;
        const one = { sessions: { only: session.id }, tokensWithoutSession: false } as const;
        expect(await users.endSessions(user.id, one, T0 + 2)).toBe(1);
        expect(await liveIds(user.id, T0 + 2)).toEqual([other.id]);
        expect(await users.endSessions(user.id, one, T0 + 3)).toBe(0);
        expect((await users.findWithSession(user.id, null, T0 + 3))?.tokensWithoutSessionEndedAt).toBeNull();
      });

      it("never ends another account's session by its id", async () => {
        const alice = await inserted();
        const bob = await inserted({ email: 'bob@example.com' });
        expect(await users.endSessions(alice.user.id, { sessions: { only: bob.session.id }, tokensWithoutSession: false }, T0)).toBe(0);
        expect(await liveIds(bob.user.id)).toEqual([bob.session.id]);
        expect(await liveIds(alice.user.id)).toEqual([alice.session.id]);
      });

      it('takes a session id as plain text, never as an expression of the store: one that names none ends nothing', async () => {
        const { user, session } = await inserted();
        const other = (await users.startSession(user.id, sessionAt(T0 + 1), 20, T0 + 1)) as Session;
        // A client sends these in `DELETE /me/sessions/{id}`; to MongoDB's aggregation they read as paths and variables.
        for (const id of ['$$this.id', '$$this.createdAt', '$id', '$', '$$ROOT', '$$REMOVE', '$sessions', '$$NOW', '{"$ne":null}']) {
          expect(await users.endSessions(user.id, { sessions: { only: id }, tokensWithoutSession: false }, T0 + 2)).toBe(0);
          expect(await liveIds(user.id, T0 + 2)).toEqual([other.id, session.id]);
        }
        expect(await users.endSessions(user.id, { sessions: { allExcept: '$$this.id' }, tokensWithoutSession: false }, T0 + 3)).toBe(2);
        expect(await liveIds(user.id, T0 + 3)).toEqual([]);
      });

      it('ends every session but one, or all, and ends tokens without a session when asked', async () => {
        const { user, session } = await inserted();
        for (let i = 1; i <= 3; i++) await users.startSession(user.id, sessionAt(T0 + i), 20, T0 + i);
        expect(await users.endSessions(user.id, { sessions: { allExcept: session.id }, tokensWithoutSession: true }, T0 + 5)).toBe(3);
        expect(await liveIds(user.id, T0 + 5)).toEqual([session.id]);
        expect((await users.findWithSession(user.id, null, T0 + 5))?.tokensWithoutSessionEndedAt).toBe(T0 + 5);
        expect(await users.endSessions(user.id, { sessions: { allExcept: null }, tokensWithoutSession: false }, T0 + 6)).toBe(1);
        expect(await liveIds(user.id, T0 + 6)).toEqual([]);
        expect(await users.endSessions(user.id, { sessions: 'none', tokensWithoutSession: true }, T0 + 7)).toBe(0);
        expect((await users.findWithSession(user.id, null, T0 + 7))?.tokensWithoutSessionEndedAt).toBe(T0 + 7);
      });

      it('keeps every session started after an end of all others, and ends every one started before it', async () => {
        const { user, session } = await inserted();
        const before = await Promise.all(Array.from({ length: 5 }, (_, i) => users.startSession(user.id, sessionAt(T0 + 1 + i), 20, T0 + 10)));
        const racing = Array.from({ length: 10 }, (_, i) => users.startSession(user.id, sessionAt(T0 + 20 + i), 20, T0 + 30));
        const ended = users.endSessions(user.id, { sessions: { allExcept: session.id }, tokensWithoutSession: true }, T0 + 30);
        const during = await Promise.all(racing);
        const endedCount = (await ended) as number;
        const after = await users.startSession(user.id, sessionAt(T0 + 40), 20, T0 + 40);
        const live = new Set(await liveIds(user.id, T0 + 40));
        // Nothing lost, nothing kept that ended: the five older ones are gone, the caller's and the
        // later one live, and each racing one either ended with the rest or lives.
        for (const s of before) expect(live.has((s as Session).id)).toBe(false);
        expect(live.has(session.id) && live.has((after as Session).id)).toBe(true);
        const racingLive = during.filter((s) => live.has((s as Session).id)).length;
        expect(endedCount).toBe(5 + (10 - racingLive));
        expect(live.size).toBe(2 + racingLive);
      });

      it('changes the password, keeping only the given session and ending tokens without a session', async () => {
        const { user, session } = await inserted();
        const other = (await users.startSession(user.id, sessionAt(T0 + 1), 20, T0 + 1)) as Session;
        const changed = await users.changePassword(user.id, 'new-hash', tokenOf(user.id, other), T0 + 5);
        expect(changed).toStrictEqual({ ...user, passwordHash: 'new-hash', updatedAt: T0 + 5 });
        expect(await users.findByEmail('alice@example.com')).toStrictEqual(changed);
        expect(await liveIds(user.id, T0 + 5)).toEqual([other.id]);
        expect(await users.findWithSession(user.id, session.id, T0 + 5)).toStrictEqual({
          user: changed,
          session: null,
          tokensWithoutSessionEndedAt: T0 + 5,
          keptTokenWithoutSession: null,
        });
        await users.changePassword(user.id, 'newer-hash', null, T0 + 6);
        expect(await liveIds(user.id, T0 + 6)).toEqual([]);
      });
    });

    describe('writes re-check what their request verified, in the same step', () => {
      /** Alice with a second session; her password hash, and what a token of each session says. */
      async function aliceWithTwoSessions() {
        const { user, session } = await inserted();
        const other = (await users.startSession(user.id, sessionAt(T0 + 1), 20, T0 + 1)) as Session;
        return { user, hash: user.passwordHash, first: tokenOf(user.id, session), second: tokenOf(user.id, other), session, other };
      }
      /** Everything about the account a write could change, to show a refused one changed nothing. */
      const stateOf = async (userId: string, now: number) => ({
        found: await users.findWithSession(userId, null, now),
        sessions: await users.listSessions(userId, now),
      });

      it('starts a session only while the password hash is the one the request verified', async () => {
        const { user, hash } = await aliceWithTwoSessions();
        expect(await users.startSession(user.id, sessionAt(T0 + 2), 20, T0 + 2, { passwordHash: hash })).toStrictEqual({ ...sessionAt(T0 + 2), id: expect.any(String) });
        await users.changePassword(user.id, 'new-hash', null, T0 + 3);
        expect(await users.startSession(user.id, sessionAt(T0 + 4), 20, T0 + 4, { passwordHash: hash })).toBeNull();
        expect(await liveIds(user.id, T0 + 4)).toEqual([]);
        expect(await users.startSession(user.id, sessionAt(T0 + 5), 20, T0 + 5, { passwordHash: 'new-hash' })).not.toBeNull();
      });

      it('changes the password only while the hash and the caller\'s session are the ones verified; a refused change changes nothing', async () => {
        const { user, hash, first, second } = await aliceWithTwoSessions();
        expect(await users.changePassword(user.id, 'from-second', second, T0 + 2, { passwordHash: hash, token: second })).toMatchObject({ passwordHash: 'from-second' });
        // The first session ended with that change; the hash it verified is gone too.
        const before = await stateOf(user.id, T0 + 3);
        expect(await users.changePassword(user.id, 'from-first', first, T0 + 3, { passwordHash: hash, token: first })).toBeNull();
        expect(await users.changePassword(user.id, 'from-first', first, T0 + 3, { passwordHash: 'from-second', token: first })).toBeNull();
        // Through the second session, with the hash it replaced, too.
        expect(await users.changePassword(user.id, 'again', second, T0 + 3, { passwordHash: hash, token: second })).toBeNull();
        expect(await stateOf(user.id, T0 + 3)).toStrictEqual(before);
        expect(before.found?.user.passwordHash).toBe('from-second');
      });

      it('lets exactly one of concurrent password changes that verified the same hash apply', async () => {
        const { user } = await inserted();
        const sessions = await Promise.all(Array.from({ length: 8 }, (_, i) => users.startSession(user.id, sessionAt(T0 + 1 + i), 20, T0 + 10)));
        const results = await Promise.all(
          sessions.map((session, i) => {
            const token = tokenOf(user.id, session as Session);
            return users.changePassword(user.id, `hash-${i}`, token, T0 + 20, { passwordHash: user.passwordHash, token });
          }),
        );
        const applied = results.flatMap((changed, i) => (changed ? [i] : []));
        expect(applied).toHaveLength(1);
        const winner = applied[0] as number;
        expect((await users.findById(user.id))?.passwordHash).toBe(`hash-${winner}`);
        expect(await liveIds(user.id, T0 + 20)).toEqual([(sessions[winner] as Session).id]);
      });

      it('keeps the token without a session a password change was made with, and ends every other one', async () => {
        const { user } = await inserted();
        const hash = user.passwordHash;
        const older = tokenOf(user.id, T0 - 3000);
        const caller = tokenOf(user.id, T0 - 2000);
        const newer = tokenOf(user.id, T0 - 1000);
        expect(await users.changePassword(user.id, 'new-hash', caller, T0 + 5, { passwordHash: hash, token: caller })).not.toBeNull();
        expect(await liveIds(user.id, T0 + 5)).toEqual([]);
        const found = await users.findWithSession(user.id, null, T0 + 5);
        expect(found).toMatchObject({ tokensWithoutSessionEndedAt: T0 + 5, keptTokenWithoutSession: caller.issuedAt });
        // Still the caller's: it may change the password again, and nothing else may.
        expect(await users.changePassword(user.id, 'newer-hash', caller, T0 + 6, { passwordHash: 'new-hash', token: caller })).not.toBeNull();
        for (const ended of [older, newer]) {
          expect(await users.changePassword(user.id, 'x', ended, T0 + 7, { passwordHash: 'newer-hash', token: ended })).toBeNull();
        }
        // Ending the tokens without a session ends the kept one too.
        await users.endSessions(user.id, { sessions: 'none', tokensWithoutSession: true }, T0 + 8);
        expect(await users.findWithSession(user.id, null, T0 + 8)).toMatchObject({ tokensWithoutSessionEndedAt: T0 + 8, keptTokenWithoutSession: null });
        expect(await users.changePassword(user.id, 'x', caller, T0 + 9, { passwordHash: 'newer-hash', token: caller })).toBeNull();
      });

      it('changes the name and the e-mail only while the caller\'s token is accepted and the hash is the one verified', async () => {
        const { user, hash, first, second } = await aliceWithTwoSessions();
        await inserted({ email: 'bob@example.com' });
        expect(await users.update(user.id, { name: 'Alicia', updatedAt: T0 + 2 }, { token: first })).toMatchObject({ name: 'Alicia' });
        await users.changePassword(user.id, 'new-hash', second, T0 + 3);
        const before = await stateOf(user.id, T0 + 4);
        // The first session ended; the second verified a hash that was replaced; neither applies,
        // and a refused change is refused before the e-mail is looked at.
        expect(await users.update(user.id, { name: 'Mallory', updatedAt: T0 + 4 }, { token: first })).toBeNull();
        for (const email of ['alicia@example.com', 'bob@example.com']) {
          expect(await users.update(user.id, { email, updatedAt: T0 + 4 }, { token: second, passwordHash: hash })).toBeNull();
        }
        expect(await stateOf(user.id, T0 + 4)).toStrictEqual(before);
        expect(await users.findByEmail('alicia@example.com')).toBeNull();
        expect(await users.update(user.id, { email: 'alicia@example.com', updatedAt: T0 + 5 }, { token: second, passwordHash: 'new-hash' })).toMatchObject({
          email: 'alicia@example.com',
        });
      });

      it("ends sessions only while the caller's token is accepted", async () => {
        const { user, first, second, other } = await aliceWithTwoSessions();
        const others = (token: TokenClaims) => ({ sessions: { allExcept: token.sessionId }, tokensWithoutSession: true });
        expect(await users.endSessions(user.id, others(second), T0 + 2, { token: second })).toBe(1);
        // The first session ended: its own request to end the others ends nothing.
        expect(await users.endSessions(user.id, others(first), T0 + 3, { token: first })).toBeNull();
        expect(await liveIds(user.id, T0 + 3)).toEqual([other.id]);
        expect((await users.findWithSession(user.id, null, T0 + 3))?.tokensWithoutSessionEndedAt).toBe(T0 + 2);
      });

      it('exchanges a token without a session for a session once, ending every token without a session in the same step', async () => {
        const { user, session } = await inserted();
        const legacy = T0 - 2000;
        const exchanged = await users.exchangeTokenWithoutSession(user.id, legacy, sessionAt(legacy), 20, T0 + 1);
        expect(exchanged).toStrictEqual({ ...sessionAt(legacy), id: expect.any(String) });
        expect(await liveIds(user.id, T0 + 1)).toEqual([(exchanged as Session).id, session.id]);
        expect((await users.findWithSession(user.id, null, T0 + 1))?.tokensWithoutSessionEndedAt).toBe(T0 + 1);
        expect(await users.exchangeTokenWithoutSession(user.id, legacy, sessionAt(legacy), 20, T0 + 2)).toBeNull();
        expect(await users.exchangeTokenWithoutSession(user.id, T0 - 1000, sessionAt(T0), 20, T0 + 2)).toBeNull();
        expect(await liveIds(user.id, T0 + 2)).toEqual([(exchanged as Session).id, session.id]);
      });

      it('exchanges the token a password change kept, and then no more', async () => {
        const { user } = await inserted();
        const hash = user.passwordHash;
        const kept = tokenOf(user.id, T0 - 1000);
        await users.changePassword(user.id, 'new-hash', kept, T0 + 1, { passwordHash: hash, token: kept });
        expect(await users.exchangeTokenWithoutSession(user.id, kept.issuedAt, sessionAt(kept.issuedAt), 20, T0 + 2)).not.toBeNull();
        expect((await users.findWithSession(user.id, null, T0 + 2))?.keptTokenWithoutSession).toBeNull();
        expect(await users.exchangeTokenWithoutSession(user.id, kept.issuedAt, sessionAt(kept.issuedAt), 20, T0 + 3)).toBeNull();
      });

      it('starts exactly one session of many concurrent exchanges of one token', async () => {
        const { user, session } = await inserted();
        const legacy = T0 - 1000;
        const results = await Promise.all(Array.from({ length: 10 }, () => users.exchangeTokenWithoutSession(user.id, legacy, sessionAt(legacy), 20, T0 + 1)));
        const started = results.filter((s) => s !== null) as Session[];
        expect(started).toHaveLength(1);
        expect((await liveIds(user.id, T0 + 1)).sort()).toEqual([session.id, started[0]?.id].sort());
      });

      it('reads an account being deleted as gone, and applies no write that requires anything to it, until the mark lapses', async () => {
        const { user, hash, first, second } = await aliceWithTwoSessions();
        expect(await users.startDeletion(user.id, T0 + MINUTE, T0 + 2, { passwordHash: hash, token: first })).toBe(true);
        expect(await users.findWithSession(user.id, first.sessionId, T0 + 2)).toBeNull();
        expect(await users.findWithSession(user.id, null, T0 + MINUTE - 1)).toBeNull();
        expect(await users.startSession(user.id, sessionAt(T0 + 3), 20, T0 + 3, { passwordHash: hash })).toBeNull();
        expect(await users.changePassword(user.id, 'x', second, T0 + 3, { passwordHash: hash, token: second })).toBeNull();
        expect(await users.update(user.id, { name: 'Mallory', updatedAt: T0 + 3 }, { token: second })).toBeNull();
        expect(await users.startDeletion(user.id, T0 + 2 * MINUTE, T0 + 3, { passwordHash: hash, token: second })).toBe(false);
        expect(await users.exchangeTokenWithoutSession(user.id, T0 - 1000, sessionAt(T0), 20, T0 + 3)).toBeNull();
        // A deletion whose process died: once the mark lapses, the account is as it was.
        const back = await users.findWithSession(user.id, first.sessionId, T0 + MINUTE);
        expect(back).toMatchObject({ user, session: { id: first.sessionId } });
        expect(await liveIds(user.id, T0 + MINUTE)).toEqual([second.sessionId, first.sessionId]);
        expect(await users.startDeletion(user.id, T0 + 2 * MINUTE, T0 + MINUTE, { passwordHash: hash, token: second })).toBe(true);
      });

      it('starts a deletion only while what its request verified holds', async () => {
        const { user, hash, first, second } = await aliceWithTwoSessions();
        await users.endSessions(user.id, { sessions: { only: first.sessionId as string }, tokensWithoutSession: false }, T0 + 2);
        expect(await users.startDeletion(user.id, T0 + MINUTE, T0 + 2, { passwordHash: hash, token: first })).toBe(false);
        expect(await users.startDeletion(user.id, T0 + MINUTE, T0 + 2, { passwordHash: 'another-hash', token: second })).toBe(false);
        expect(await users.findWithSession(user.id, second.sessionId, T0 + 2)).toMatchObject({ user, session: { id: second.sessionId } });
      });

      it('lifts the mark on cancelDeletion, and deletes a marked account', async () => {
        const { user, hash, first } = await aliceWithTwoSessions();
        await users.startDeletion(user.id, T0 + MINUTE, T0 + 2, { passwordHash: hash, token: first });
        await users.cancelDeletion(user.id);
        expect(await users.findWithSession(user.id, first.sessionId, T0 + 2)).toMatchObject({ user, session: { id: first.sessionId } });
        expect(await users.changePassword(user.id, 'new-hash', first, T0 + 3, { passwordHash: hash, token: first })).not.toBeNull();
        await users.startDeletion(user.id, T0 + MINUTE, T0 + 4, { passwordHash: 'new-hash', token: first });
        expect(await users.delete(user.id)).toBe(true);
        expect(await users.findById(user.id)).toBeNull();
        expect(await users.findByEmail('alice@example.com')).toBeNull();
      });

      it('lets exactly one of a deletion and a password change that verified the same hash apply', async () => {
        for (let i = 0; i < 10; i++) {
          const { user, hash, first, second } = await aliceWithTwoSessions();
          const [deleting, changed] = await Promise.all([
            users.startDeletion(user.id, T0 + MINUTE, T0 + 2, { passwordHash: hash, token: first }),
            users.changePassword(user.id, 'new-hash', second, T0 + 2, { passwordHash: hash, token: second }),
          ]);
          expect(Number(deleting) + Number(changed !== null)).toBe(1);
          await users.delete(user.id);
        }
      });
    });

    describe('mailed links: only their hash is kept, with the address they went to', () => {
      it('records a password reset for the account that has the address, found by its hash until it expires', async () => {
        const { user } = await inserted();
        expect(await users.recordPasswordReset(link('reset-1'), KEEP, T0 + 10)).toStrictEqual({ user, recorded: true });
        expect(await users.findByPasswordReset('reset-1', T0 + 11)).toStrictEqual(user);
        expect(await users.findByPasswordReset('reset-1', T0 + 10 + 30 * MINUTE - 1)).toStrictEqual(user);
        expect(await users.findByPasswordReset('reset-1', T0 + 10 + 30 * MINUTE)).toBeNull();
        expect(await users.findByPasswordReset('reset-2', T0 + 11)).toBeNull();
        // The two kinds of link are kept apart.
        expect(await users.verifyEmail('reset-1', T0 + 11)).toBeNull();
      });

      it('finds no account for an address none has, and records no reset for an account being deleted', async () => {
        const { user, session } = await inserted();
        expect(await users.recordPasswordReset(link('r', T0 + 10, { email: 'bob@example.com' }), KEEP, T0 + 10)).toBeNull();
        expect(await users.recordPasswordReset(link('r', T0 + 10, { email: 'ALICE@example.com' }), KEEP, T0 + 10)).toBeNull();
        for (const id of idsThatNameNothing) {
          expect(await users.recordEmailVerification(id, link('v'), T0 + 10)).toBeNull();
          expect(await users.resetPassword(id, 'r', 'hash', sessionAt(T0 + 10), T0 + 10)).toBeNull();
        }
        await users.startDeletion(user.id, T0 + MINUTE, T0 + 5, { token: tokenOf(user.id, session) });
        expect(await users.recordPasswordReset(link('r'), KEEP, T0 + 10)).toStrictEqual({ user, recorded: false });
        expect(await users.recordEmailVerification(user.id, link('v'), T0 + 10)).toBeNull();
        expect(await users.findByPasswordReset('r', T0 + 11)).toBeNull();
      });

      it('records a reset only if it was asked for after the last password change (or the account was created)', async () => {
        const { user } = await inserted({ createdAt: T0 + 5 });
        expect(await users.recordPasswordReset(link('before-signup', T0 + 4), KEEP, T0 + 10)).toStrictEqual({ user, recorded: false });
        expect(await users.recordPasswordReset(link('same-ms-as-signup', T0 + 5), KEEP, T0 + 10)).toStrictEqual({ user, recorded: false });
        const changed = await users.changePassword(user.id, 'new-hash', null, T0 + 20);
        expect(await users.recordPasswordReset(link('before-change', T0 + 19), KEEP, T0 + 30)).toStrictEqual({ user: changed, recorded: false });
        expect(await users.recordPasswordReset(link('same-ms-as-change', T0 + 20), KEEP, T0 + 30)).toStrictEqual({ user: changed, recorded: false });
        expect(await users.recordPasswordReset(link('after-change', T0 + 21), KEEP, T0 + 30)).toStrictEqual({ user: changed, recorded: true });
        for (const hash of ['before-signup', 'same-ms-as-signup', 'before-change', 'same-ms-as-change']) expect(await users.findByPasswordReset(hash, T0 + 31)).toBeNull();
        expect(await users.findByPasswordReset('after-change', T0 + 31)).toStrictEqual(changed);
      });

      it('keeps every live reset: one asked for later ends none asked for earlier, in whatever order they come; the same one again is kept once', async () => {
        const { user } = await inserted();
        expect(await users.recordPasswordReset(link('second', T0 + 20), KEEP, T0 + 30)).toStrictEqual({ user, recorded: true });
        expect(await users.recordPasswordReset(link('first', T0 + 10), KEEP, T0 + 30)).toStrictEqual({ user, recorded: true });
        expect(await users.recordPasswordReset(link('second', T0 + 20), KEEP, T0 + 31)).toStrictEqual({ user, recorded: true });
        expect(await users.recordPasswordReset(link('third', T0 + 25), KEEP, T0 + 32)).toStrictEqual({ user, recorded: true });
        for (const hash of ['first', 'second', 'third']) expect(await users.findByPasswordReset(hash, T0 + 33)).toStrictEqual(user);
        // Each one ends on its own use (with the others: the password changed).
        expect(await users.resetPassword(user.id, 'first', 'new-hash', sessionAt(T0 + 34), T0 + 34)).not.toBeNull();
        for (const hash of ['first', 'second', 'third']) expect(await users.findByPasswordReset(hash, T0 + 35)).toBeNull();
      });

      it('keeps at most the newest `keep` live resets: expired ones go first, then the oldest', async () => {
        const { user } = await inserted();
        await users.recordPasswordReset(link('expired', T0 + 1), 2, T0 + 1);
        await users.recordPasswordReset(link('a', T0 + 30 * MINUTE), 2, T0 + 30 * MINUTE);
        await users.recordPasswordReset(link('b', T0 + 30 * MINUTE + 1), 2, T0 + 30 * MINUTE + 1);
        const now = T0 + 30 * MINUTE + 2;
        expect(await users.findByPasswordReset('a', now)).toStrictEqual(user);
        expect(await users.recordPasswordReset(link('c', T0 + 30 * MINUTE + 2), 2, now)).toStrictEqual({ user, recorded: true });
        expect(await users.findByPasswordReset('a', now)).toBeNull();
        expect(await users.findByPasswordReset('b', now)).toStrictEqual(user);
        expect(await users.findByPasswordReset('c', now)).toStrictEqual(user);
        // One older than every link kept is not kept in their place.
        expect(await users.recordPasswordReset(link('late', T0 + 30 * MINUTE), 2, now)).toStrictEqual({ user, recorded: false });
        expect(await users.findByPasswordReset('late', now)).toBeNull();
      });

      it('loses no reset recorded concurrently, and keeps no more than `keep`', async () => {
        const { user } = await inserted();
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => users.recordPasswordReset(link(`r${i}`, T0 + 10 + i), 8, T0 + 20)));
        expect(results).toStrictEqual(Array.from({ length: 8 }, () => ({ user, recorded: true })));
        for (let i = 0; i < 8; i++) expect(await users.findByPasswordReset(`r${i}`, T0 + 21)).toStrictEqual(user);
        await Promise.all(Array.from({ length: 8 }, (_, i) => users.recordPasswordReset(link(`s${i}`, T0 + 30 + i), 3, T0 + 40)));
        const live = await Promise.all(['r0', 'r7', 's0', 's4', 's5', 's6', 's7'].map(async (hash) => [hash, (await users.findByPasswordReset(hash, T0 + 41)) !== null]));
        expect(Object.fromEntries(live)).toStrictEqual({ r0: false, r7: false, s0: false, s4: false, s5: true, s6: true, s7: true });
      });

      it('voids every recorded reset on a password change', async () => {
        const { user } = await inserted();
        await users.recordPasswordReset(link('r', T0 + 10), KEEP, T0 + 10);
        await users.recordPasswordReset(link('s', T0 + 11), KEEP, T0 + 11);
        await users.changePassword(user.id, 'new-hash', null, T0 + 20);
        for (const hash of ['r', 's']) {
          expect(await users.findByPasswordReset(hash, T0 + 21)).toBeNull();
          expect(await users.resetPassword(user.id, hash, 'another-hash', sessionAt(T0 + 21), T0 + 21)).toBeNull();
        }
      });

      it('consumes a reset once: the new hash, the address verified, every session and token without one ended, one new session', async () => {
        const { user, session } = await inserted();
        await users.startSession(user.id, sessionAt(T0 + 1), 20, T0 + 1);
        await users.recordPasswordReset(link('r', T0 + 10), KEEP, T0 + 10);
        await users.recordPasswordReset(link('other', T0 + 11), KEEP, T0 + 11);
        const reset = await users.resetPassword(user.id, 'r', 'new-hash', sessionAt(T0 + 20), T0 + 20);
        expect(reset).toStrictEqual({
          user: { ...user, passwordHash: 'new-hash', emailVerified: true, updatedAt: T0 + 20 },
          session: { ...sessionAt(T0 + 20), id: expect.any(String) },
        });
        expect(await liveIds(user.id, T0 + 20)).toEqual([reset?.session.id]);
        const found = await users.findWithSession(user.id, session.id, T0 + 20);
        expect(found).toMatchObject({ session: null, tokensWithoutSessionEndedAt: T0 + 20, keptTokenWithoutSession: null });
        for (const hash of ['r', 'other']) {
          expect(await users.findByPasswordReset(hash, T0 + 21)).toBeNull();
          expect(await users.resetPassword(user.id, hash, 'newer-hash', sessionAt(T0 + 21), T0 + 21)).toBeNull();
        }
        expect((await users.findById(user.id))?.passwordHash).toBe('new-hash');
        // The password changed: a reset asked for before the change is not recorded any more.
        expect(await users.recordPasswordReset(link('r2', T0 + 15), KEEP, T0 + 22)).toMatchObject({ recorded: false });
      });

      it('consumes no reset that expired, that was sent to an address the account left, of another account, or of an account being deleted', async () => {
        const { user, session } = await inserted();
        const bob = await inserted({ email: 'bob@example.com' });
        await users.recordPasswordReset(link('r', T0 + 10), KEEP, T0 + 10);
        expect(await users.resetPassword(user.id, 'r', 'h', sessionAt(T0 + 10 + 30 * MINUTE), T0 + 10 + 30 * MINUTE)).toBeNull();
        expect(await users.resetPassword(bob.user.id, 'r', 'h', sessionAt(T0 + 11), T0 + 11)).toBeNull();
        await users.startDeletion(user.id, T0 + 12 + MINUTE, T0 + 12, { token: tokenOf(user.id, session) });
        expect(await users.resetPassword(user.id, 'r', 'h', sessionAt(T0 + 13), T0 + 13)).toBeNull();
        await users.cancelDeletion(user.id);
        await users.update(user.id, { email: 'alicia@example.com', updatedAt: T0 + 14 });
        await users.update(user.id, { email: 'alice@example.com', updatedAt: T0 + 15 });
        expect(await users.findByPasswordReset('r', T0 + 16)).toBeNull();
        expect(await users.resetPassword(user.id, 'r', 'h', sessionAt(T0 + 16), T0 + 16)).toBeNull();
        expect(await users.findById(user.id)).toMatchObject({ passwordHash: user.passwordHash });
      });

      it('lets exactly one of concurrent uses of the live resets of one account apply', async () => {
        const { user } = await inserted();
        await users.recordPasswordReset(link('r', T0 + 10), KEEP, T0 + 10);
        await users.recordPasswordReset(link('s', T0 + 11), KEEP, T0 + 11);
        const results = await Promise.all(Array.from({ length: 10 }, (_, i) => users.resetPassword(user.id, i % 2 ? 'r' : 's', `hash-${i}`, sessionAt(T0 + 20), T0 + 20)));
        const applied = results.filter((result) => result !== null);
        expect(applied).toHaveLength(1);
        expect((await users.findById(user.id))?.passwordHash).toBe(applied[0]?.user.passwordHash);
        expect(await liveIds(user.id, T0 + 20)).toEqual([applied[0]?.session.id]);
      });

      it('records a verification only for the address the account has while unverified, and keeps the one asked for last', async () => {
        const { user } = await inserted();
        expect(await users.recordEmailVerification(user.id, link('v', T0 + 10, { email: 'bob@example.com' }), T0 + 10)).toBeNull();
        expect(await users.recordEmailVerification(user.id, link('v2', T0 + 20), T0 + 20)).toStrictEqual(user);
        expect(await users.recordEmailVerification(user.id, link('v1', T0 + 10), T0 + 21)).toBeNull();
        expect(await users.recordEmailVerification(user.id, link('v2', T0 + 20), T0 + 22)).toStrictEqual(user);
        expect(await users.verifyEmail('v1', T0 + 23)).toBeNull();
        const verified = await users.verifyEmail('v2', T0 + 23);
        expect(verified).toStrictEqual({ ...user, emailVerified: true, updatedAt: T0 + 23 });
        expect(await users.findById(user.id)).toStrictEqual(verified);
        expect(await users.verifyEmail('v2', T0 + 24)).toBeNull();
        expect(await users.recordEmailVerification(user.id, link('v3', T0 + 30), T0 + 30)).toBeNull();
      });

      it('verifies no address with a link that expired or went to an address the account left, and exactly once under concurrent uses', async () => {
        const { user } = await inserted();
        await users.recordEmailVerification(user.id, link('v', T0 + 10), T0 + 10);
        expect(await users.verifyEmail('v', T0 + 10 + 30 * MINUTE)).toBeNull();
        await users.recordEmailVerification(user.id, link('w', T0 + 20), T0 + 20);
        await users.update(user.id, { email: 'alicia@example.com', updatedAt: T0 + 21 });
        await users.update(user.id, { email: 'alice@example.com', updatedAt: T0 + 22 });
        expect(await users.verifyEmail('w', T0 + 23)).toBeNull();
        await users.recordEmailVerification(user.id, link('x', T0 + 30), T0 + 30);
        const results = await Promise.all(Array.from({ length: 10 }, () => users.verifyEmail('x', T0 + 31)));
        expect(results.filter((result) => result !== null)).toHaveLength(1);
      });

      it('makes a new address unverified and voids the links of the old one; the same address changes neither', async () => {
        const { user } = await inserted();
        await users.recordEmailVerification(user.id, link('v', T0 + 10), T0 + 10);
        await users.verifyEmail('v', T0 + 11);
        await users.recordPasswordReset(link('r', T0 + 12), KEEP, T0 + 12);
        const same = await users.update(user.id, { email: 'alice@example.com', name: 'Alicia', updatedAt: T0 + 13 });
        expect(same).toStrictEqual({ ...user, name: 'Alicia', emailVerified: true, updatedAt: T0 + 13 });
        expect(await users.findByPasswordReset('r', T0 + 14)).toStrictEqual(same);
        const moved = await users.update(user.id, { email: 'alicia@example.com', updatedAt: T0 + 14 });
        expect(moved).toStrictEqual({ ...user, name: 'Alicia', email: 'alicia@example.com', emailVerified: false, updatedAt: T0 + 14 });
        expect(await users.findByPasswordReset('r', T0 + 15)).toBeNull();
        // Links to the new address are recorded as for any unverified one.
        expect(await users.recordEmailVerification(user.id, link('n', T0 + 16, { email: 'alicia@example.com' }), T0 + 16)).toStrictEqual(moved);
        expect(await users.recordPasswordReset(link('n', T0 + 16, { email: 'alicia@example.com' }), KEEP, T0 + 16)).toStrictEqual({ user: moved, recorded: true });
        expect(await users.recordPasswordReset(link('o', T0 + 16), KEEP, T0 + 16)).toBeNull();
      });

      it('takes a token hash as plain text, never as an expression of the store', async () => {
        const { user } = await inserted();
        await users.recordPasswordReset(link('r', T0 + 10), KEEP, T0 + 10);
        await users.recordEmailVerification(user.id, link('v', T0 + 10), T0 + 10);
        for (const hash of ['$passwordResets.tokenHash', '$passwordResets', '$emailVerification.tokenHash', '$$ROOT', '$$this.tokenHash', '.*', '']) {
          expect(await users.findByPasswordReset(hash, T0 + 11)).toBeNull();
          expect(await users.resetPassword(user.id, hash, 'h', sessionAt(T0 + 11), T0 + 11)).toBeNull();
          expect(await users.verifyEmail(hash, T0 + 11)).toBeNull();
        }
        expect(await users.findByPasswordReset('r', T0 + 11)).toStrictEqual(user);
      });
    });
  });
}
