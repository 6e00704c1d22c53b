import {
  DomainError,
  endsSession,
  type LinkRecord,
  type NewSession,
  type NewUser,
  type Session,
  type SessionsToEnd,
  type TokenClaims,
  type User,
  type UserChanges,
  type UserRepository,
  type UserWithSession,
  type Verified,
} from '@inkwell/domain';
import { randomBytes } from 'node:crypto';
import { MongoServerError, ObjectId, type Collection, type Db, type Document, type UpdateFilter } from 'mongodb';
import { usersCollection, type LinkDocument, type SessionDocument, type UserDocument } from './collections.js';
import { toObjectId } from './object-ids.js';
import { callStore } from './store-errors.js';

const DUPLICATE_KEY = 11000;

/** The user's own fields: what every read of a user asks for, never its sessions. */
const USER_FIELDS = { email: 1, name: 1, passwordHash: 1, emailVerified: 1, createdAt: 1, updatedAt: 1 } as const;

/**
 * Users in the `users` collection, each document holding the account's sessions. The unique
 * index on `email` (see ensureIndexes) decides concurrent signups and e-mail changes.
 *
 * Every change to an account's sessions is one update of its document, most of them an update
 * pipeline that recomputes the `sessions` array from what is stored at that moment: MongoDB
 * applies an update to a document atomically, so concurrent logins, logouts and refreshes from
 * any number of processes are serialised on it and none overwrites another (a read, then a write
 * of the whole array, would lose sessions). Each pipeline also drops the sessions that expired.
 * What a write's request verified (`Verified`) is part of that update's filter, so it is checked
 * by the same atomic step that writes: a filter that no longer matches writes nothing.
 */
export class MongoUserRepository implements UserRepository {
  readonly #users: Collection<UserDocument>;

  /** A repository over `db`'s `users` collection. */
  constructor(db: Db) {
    this.#users = usersCollection(db);
  }

  /** Stores the user under a new ObjectId with its first session; a taken e-mail is `DomainError('EmailAlreadyInUse')`. */
  async insert(newUser: NewUser, newSession: NewSession): Promise<{ user: User; session: Session }> {
    const session = toSessionDocument(newSession);
    // Fields are picked one by one so nothing a caller smuggles onto the object is stored.
    const document: UserDocument = {
      _id: new ObjectId(),
      email: newUser.email,
      name: newUser.name,
      passwordHash: newUser.passwordHash,
      emailVerified: newUser.emailVerified,
      createdAt: newUser.createdAt,
      updatedAt: newUser.updatedAt,
      sessions: [session],
    };
    return callStore(async () => {
      await emailTakenAs(this.#users.insertOne(document));
      return { user: toUser(document), session: toSession(session) };
    });
  }

  /** The user with this e-mail, or null. */
  async findByEmail(email: string): Promise<User | null> {
    return callStore(async () => {
      const document = await this.#users.findOne({ email }, { projection: USER_FIELDS });
      return document && toUser(document);
    });
  }

  /** The user with this id, or null; an id this adapter never issues costs no query. */
  async findById(id: string): Promise<User | null> {
    const _id = toObjectId(id);
    if (!_id) return null;
    return callStore(async () => {
      const document = await this.#users.findOne({ _id }, { projection: USER_FIELDS });
      return document && toUser(document);
    });
  }

  /** The user and, projected from the same document in the same `find`, the one session asked for. */
  async findWithSession(id: string, sessionId: string | null, now: number): Promise<UserWithSession | null> {
    const _id = toObjectId(id);
    if (!_id) return null;
    const projection: Document = { ...USER_FIELDS, tokensWithoutSessionEndedAt: 1, keptTokenWithoutSession: 1, deletingUntil: 1 };
    if (sessionId !== null) projection.sessions = { $elemMatch: { id: sessionId, expiresAt: { $gt: now } } };
    return callStore(async () => {
      const document = await this.#users.findOne({ _id }, { projection });
      if (!document || (document.deletingUntil ?? 0) > now) return null;
      const session = document.sessions?.[0];
      return {
        user: toUser(document),
        session: session ? toSession(session) : null,
        tokensWithoutSessionEndedAt: document.tokensWithoutSessionEndedAt ?? null,
        keptTokenWithoutSession: document.keptTokenWithoutSession ?? null,
      };
    });
  }

  /** Appends the session to the live ones and keeps the last `maxPerUser` of them, in one update whose filter holds `requires`. */
  async startSession(userId: string, newSession: NewSession, maxPerUser: number, now: number, requires?: Verified): Promise<Session | null> {
    return this.#start(userId, newSession, maxPerUser, now, requires, {});
  }

  /** `startSession` while the token is accepted, ending every token without a session in the same update. */
  async exchangeTokenWithoutSession(userId: string, issuedAt: number, newSession: NewSession, maxPerUser: number, now: number): Promise<Session | null> {
    const token: TokenClaims = { userId, sessionId: null, issuedAt };
    return this.#start(userId, newSession, maxPerUser, now, { token }, { tokensWithoutSessionEndedAt: now, keptTokenWithoutSession: null });
  }

  /** The live sessions, newest first. */
  async listSessions(userId: string, now: number): Promise<Session[]> {
    const _id = toObjectId(userId);
    if (!_id) return [];
    return callStore(async () => {
      const document = await this.#users.findOne({ _id }, { projection: { sessions: 1 } });
      return (document?.sessions ?? []).filter((session) => session.expiresAt > now).reverse().map(toSession);
    });
  }

  /** Sets the expiry of the session when it is live, through the array element the filter matched. */
  async extendSession(userId: string, sessionId: string, expiresAt: number, now: number): Promise<Session | null> {
    const _id = toObjectId(userId);
    if (!_id) return null;
    return callStore(async () => {
      const after = await this.#users.findOneAndUpdate(
        { _id, sessions: { $elemMatch: { id: sessionId, expiresAt: { $gt: now } } } },
        { $set: { 'sessions.$.expiresAt': expiresAt } },
        { returnDocument: 'after', projection: { sessions: { $elemMatch: { id: sessionId } } } },
      );
      const session = after?.sessions?.[0];
      return session ? toSession(session) : null;
    });
  }

  /** Keeps the live sessions `which` does not select, in one update whose filter holds `requires`; counts the live ones it ended from the document before. */
  async endSessions(userId: string, which: SessionsToEnd, now: number, requires?: Verified): Promise<number | null> {
    const _id = toObjectId(userId);
    if (!_id) return null;
    const set: Document = { sessions: { $filter: { input: liveSessions(now), cond: keeps(which) } } };
    if (which.tokensWithoutSession) Object.assign(set, { tokensWithoutSessionEndedAt: now, keptTokenWithoutSession: null });
    return callStore(async () => {
      const before = await this.#users.findOneAndUpdate({ _id, ...stillHolds(requires, now) }, [{ $set: set }], {
        returnDocument: 'before',
        projection: { sessions: 1 },
      });
      if (!before) return null;
      const live = (before.sessions ?? []).filter((session) => session.expiresAt > now);
      return live.filter((session) => endsSession(which, session)).length;
    });
  }

  /** Sets the hash and keeps only the caller's live session or token without one, in one update whose filter holds `requires`. */
  async changePassword(userId: string, passwordHash: string, caller: TokenClaims | null, now: number, requires?: Verified): Promise<User | null> {
    const _id = toObjectId(userId);
    if (!_id) return null;
    const keptSessionId = caller?.sessionId ?? null;
    const keptToken = caller !== null && caller.sessionId === null ? caller.issuedAt : null;
    const sessions = { $filter: { input: liveSessions(now), cond: { $eq: ['$$this.id', { $literal: keptSessionId }] } } };
    const set = {
      passwordHash: { $literal: passwordHash },
      updatedAt: { $max: ['$updatedAt', now] },
      tokensWithoutSessionEndedAt: now,
      keptTokenWithoutSession: keptToken,
      sessions,
      passwordChangedAt: now,
      passwordResets: { $literal: [] },
      passwordReset: null,
    };
    return callStore(async () => {
      const after = await this.#users.findOneAndUpdate({ _id, ...stillHolds(requires, now) }, [{ $set: set }], {
        returnDocument: 'after',
        projection: USER_FIELDS,
      });
      return after && toUser(after);
    });
  }

  /**
   * Sets the given fields in one update whose filter holds `requires`; a taken e-mail is
   * `DomainError('EmailAlreadyInUse')`. An update pipeline, so that a new e-mail is told from the
   * stored one in the same step: only a move makes the account unverified and voids its links.
   */
  async update(userId: string, changes: UserChanges, requires?: Verified): Promise<User | null> {
    const _id = toObjectId(userId);
    if (!_id) return null;
    const set: Document = { updatedAt: { $max: ['$updatedAt', changes.updatedAt] } };
    if (changes.name !== undefined) set.name = { $literal: changes.name };
    if (changes.email !== undefined) {
      const stays = { $eq: ['$email', { $literal: changes.email }] };
      Object.assign(set, {
        email: { $literal: changes.email },
        emailVerified: { $and: [stays, { $eq: ['$emailVerified', true] }] },
        passwordResets: { $cond: [stays, { $ifNull: ['$passwordResets', { $literal: [] }] }, { $literal: [] }] },
        passwordReset: { $cond: [stays, '$passwordReset', null] },
        emailVerification: { $cond: [stays, '$emailVerification', null] },
      });
    }
    const filter = { _id, ...stillHolds(requires, changes.updatedAt) };
    return callStore(async () => {
      const after = await emailTakenAs(this.#users.findOneAndUpdate(filter, [{ $set: set }], { returnDocument: 'after', projection: USER_FIELDS }));
      return after && toUser(after);
    });
  }

  /** Sets `deletingUntil` in one update whose filter holds `requires`. */
  async startDeletion(userId: string, until: number, now: number, requires: Verified): Promise<boolean> {
    const _id = toObjectId(userId);
    if (!_id) return false;
    return callStore(async () => (await this.#users.updateOne({ _id, ...stillHolds(requires, now) }, { $set: { deletingUntil: until } })).matchedCount === 1);
  }

  /** Removes `deletingUntil`. */
  async cancelDeletion(userId: string): Promise<void> {
    const _id = toObjectId(userId);
    if (!_id) return;
    await callStore(() => this.#users.updateOne({ _id }, { $unset: { deletingUntil: '' } }));
  }

  /** Deletes the user's document, and with it its sessions. */
  async delete(userId: string): Promise<boolean> {
    const _id = toObjectId(userId);
    if (!_id) return false;
    return callStore(async () => (await this.#users.deleteOne({ _id })).deletedCount === 1);
  }

  /**
   * Appends the session to the live ones and keeps the last `maxPerUser` of them, setting `also`,
   * in one update whose filter holds `requires`; the session, or null when nothing matched or the
   * bound ended it at once.
   */
  async #start(userId: string, newSession: NewSession, maxPerUser: number, now: number, requires: Verified | undefined, also: Document): Promise<Session | null> {
    const _id = toObjectId(userId);
    if (!_id) return null;
    const session = toSessionDocument(newSession);
    const sessions = { $slice: [{ $concatArrays: [liveSessions(now), [{ $literal: session }]] }, -Math.max(1, maxPerUser)] };
    return callStore(async () => {
      const after = await this.#users.findOneAndUpdate({ _id, ...stillHolds(requires, now) }, [{ $set: { ...also, sessions } }], {
        returnDocument: 'after',
        projection: { sessions: { $elemMatch: { id: session.id } } },
      });
      return after?.sessions?.[0] ? toSession(session) : null;
    });
  }

  /**
   * Finds the account by its address and records the link, in one update pipeline whose filter is
   * the address alone (so an address without an account costs the same one command): the link
   * joins `passwordResets`, kept in the order the links were asked for, without the expired ones
   * and past `keep` without the oldest, only while no deletion is under way and the password last
   * changed before the request; otherwise the list stays as it was. Whether the link is in the
   * list the update answers says whether it was recorded.
   */
  async recordPasswordReset(reset: LinkRecord, keep: number, now: number): Promise<{ user: User; recorded: boolean } | null> {
    const link = { $literal: { tokenHash: reset.tokenHash, email: reset.email, requestedAt: reset.requestedAt, expiresAt: reset.expiresAt } satisfies LinkDocument };
    const others = { $filter: { input: { $ifNull: ['$passwordResets', []] }, cond: { $and: [{ $gt: ['$$this.expiresAt', now] }, { $ne: ['$$this.tokenHash', { $literal: reset.tokenHash }] }] } } };
    const asked = (compare: '$lte' | '$gt') => ({ $filter: { input: others, cond: { [compare]: ['$$this.requestedAt', reset.requestedAt] } } });
    const kept = { $slice: [{ $concatArrays: [asked('$lte'), [link], asked('$gt')] }, -Math.max(1, keep)] };
    const records = {
      $and: [{ $not: [{ $gt: [{ $ifNull: ['$deletingUntil', 0] }, now] }] }, { $lt: [{ $ifNull: ['$passwordChangedAt', '$createdAt'] }, reset.requestedAt] }],
    };
    return callStore(async () => {
      const after = await this.#users.findOneAndUpdate(
        { email: { $eq: reset.email } },
        [{ $set: { passwordResets: { $cond: [records, kept, { $ifNull: ['$passwordResets', []] }] } } }],
        { returnDocument: 'after', projection: { ...USER_FIELDS, 'passwordResets.tokenHash': 1 } },
      );
      if (!after) return null;
      return { user: toUser(after), recorded: (after.passwordResets ?? []).some((recorded) => recorded.tokenHash === reset.tokenHash) };
    });
  }

  /** The account with a live reset link of this hash, found through its index. */
  async findByPasswordReset(tokenHash: string, now: number): Promise<User | null> {
    return callStore(async () => {
      const document = await this.#users.findOne(resetFilter(tokenHash, now), { projection: USER_FIELDS });
      return document && toUser(document);
    });
  }

  /** Sets the new hash, the session and the rest in one update whose filter holds the live reset. */
  async resetPassword(userId: string, tokenHash: string, passwordHash: string, newSession: NewSession, now: number): Promise<{ user: User; session: Session } | null> {
    const _id = toObjectId(userId);
    if (!_id) return null;
    const session = toSessionDocument(newSession);
    // Plain update operators: every value is stored as it is, never read as an expression.
    const update: UpdateFilter<UserDocument> = {
      $set: {
        passwordHash,
        emailVerified: true,
        passwordChangedAt: now,
        tokensWithoutSessionEndedAt: now,
        keptTokenWithoutSession: null,
        sessions: [session],
      },
      $max: { updatedAt: now },
      $unset: { passwordResets: '', passwordReset: '', emailVerification: '' },
    };
    return callStore(async () => {
      const after = await this.#users.findOneAndUpdate({ _id, ...resetFilter(tokenHash, now) }, update, {
        returnDocument: 'after',
        projection: USER_FIELDS,
      });
      return after && { user: toUser(after), session: toSession(session) };
    });
  }

  /**
   * Sets `emailVerification` in one update whose filter holds what recording it requires: the
   * address, unverified, no deletion under way, no later one recorded (the same one again may be).
   */
  async recordEmailVerification(userId: string, verification: LinkRecord, now: number): Promise<User | null> {
    const _id = toObjectId(userId);
    if (!_id) return null;
    const link: LinkDocument = { tokenHash: verification.tokenHash, email: verification.email, requestedAt: verification.requestedAt, expiresAt: verification.expiresAt };
    const filter = {
      _id,
      email: { $eq: verification.email },
      emailVerified: { $ne: true },
      deletingUntil: { $not: { $gt: now } },
      $or: [
        { emailVerification: null },
        { 'emailVerification.requestedAt': { $lt: verification.requestedAt } },
        { 'emailVerification.tokenHash': { $eq: verification.tokenHash } },
      ],
    };
    return callStore(async () => {
      const after = await this.#users.findOneAndUpdate(filter, { $set: { emailVerification: link } }, { returnDocument: 'after', projection: USER_FIELDS });
      return after && toUser(after);
    });
  }

  /** Marks the address verified and voids the link, in one update whose filter holds the live link. */
  async verifyEmail(tokenHash: string, now: number): Promise<User | null> {
    return callStore(async () => {
      const after = await this.#users.findOneAndUpdate(
        singleLinkFilter('emailVerification', tokenHash, now),
        { $set: { emailVerified: true }, $max: { updatedAt: now }, $unset: { emailVerification: '' } },
        { returnDocument: 'after', projection: USER_FIELDS },
      );
      return after && toUser(after);
    });
  }

  /** Pulls the expired sessions out of every document that has one (found through the `sessions.expiresAt` index). */
  async removeExpiredSessions(now: number): Promise<void> {
    await callStore(() => this.#users.updateMany({ 'sessions.expiresAt': { $lte: now } }, { $pull: { sessions: { expiresAt: { $lte: now } } } }));
  }
}

/**
 * What a write's filter adds for `requires` (nothing without it): no deletion under way at `now`,
 * the password hash the request verified, and its token still accepted, by the rules of
 * `findWithSession` and `acceptsTokenWithoutSession`. Values are compared with `$eq`, so none of
 * them can read as an operator.
 */
function stillHolds(requires: Verified | undefined, now: number): Document {
  if (requires === undefined) return {};
  const filter: Document = { deletingUntil: { $not: { $gt: now } } };
  if (requires.passwordHash !== undefined) filter.passwordHash = { $eq: requires.passwordHash };
  const { token } = requires;
  if (token === undefined) return filter;
  if (token.sessionId !== null) {
    filter.sessions = { $elemMatch: { id: { $eq: token.sessionId }, expiresAt: { $gt: now } } };
  } else {
    filter.$or = [{ tokensWithoutSessionEndedAt: { $not: { $gte: token.issuedAt } } }, { keptTokenWithoutSession: { $eq: token.issuedAt } }];
  }
  return filter;
}

/**
 * The account one of whose reset links has this token hash, while the link is unexpired at `now`
 * and was sent to the account's address, and no deletion is under way: in `passwordResets`, or
 * in the single `passwordReset` of the versions that kept one. The hash is compared as a value
 * (`$eq`, `$literal`), never read as an operator or a field path.
 */
function resetFilter(tokenHash: string, now: number): Document {
  const works = (link: string) => ({ $and: [{ $eq: [`${link}.tokenHash`, { $literal: tokenHash }] }, { $gt: [`${link}.expiresAt`, now] }, { $eq: [`${link}.email`, '$email'] }] });
  return {
    deletingUntil: { $not: { $gt: now } },
    $or: [
      { 'passwordResets.tokenHash': { $eq: tokenHash }, $expr: { $anyElementTrue: [{ $map: { input: { $ifNull: ['$passwordResets', []] }, in: works('$$this') } }] } },
      singleLinkFilter('passwordReset', tokenHash, now),
    ],
  };
}

/**
 * The account whose `field` link (the one verification link, or a reset link of the versions that
 * kept one) has this token hash, while the link is unexpired at `now` and was sent to the
 * account's address, and no deletion is under way.
 */
function singleLinkFilter(field: 'passwordReset' | 'emailVerification', tokenHash: string, now: number): Document {
  return {
    [`${field}.tokenHash`]: { $eq: tokenHash },
    [`${field}.expiresAt`]: { $gt: now },
    deletingUntil: { $not: { $gt: now } },
    $expr: { $eq: [`$${field}.email`, '$email'] },
  };
}

/** The stored sessions still live at `now`, as an aggregation expression. */
function liveSessions(now: number): Document {
  return { $filter: { input: { $ifNull: ['$sessions', []] }, cond: { $gt: ['$$this.expiresAt', now] } } };
}

/**
 * The condition under which a session (`$$this`) survives `which` (the negation of `endsSession`), as
 * an aggregation expression. The id is a `$literal`: it can come straight from a request path, and
 * in an expression a string that starts with `$` is a field path or a variable (`$$this.id` would
 * match every session).
 */
function keeps(which: SessionsToEnd): Document | boolean {
  const { sessions } = which;
  if (sessions === 'none') return true;
  return 'only' in sessions
    ? { $ne: ['$$this.id', { $literal: sessions.only }] }
    : { $eq: ['$$this.id', { $literal: sessions.allExcept }] };
}

/** Runs a write, turning the unique e-mail index's refusal into `EmailAlreadyInUse` (only `_id` and `email` are unique, and a fresh ObjectId does not collide). */
async function emailTakenAs<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) throw new DomainError('EmailAlreadyInUse');
    throw error;
  }
}

/** A new session under a random 128-bit id. */
function toSessionDocument(session: NewSession): SessionDocument {
  return { id: randomBytes(16).toString('base64url'), createdAt: session.createdAt, expiresAt: session.expiresAt };
}

function toSession(document: SessionDocument): Session {
  return { id: document.id, createdAt: document.createdAt, expiresAt: document.expiresAt };
}

function toUser(document: Pick<UserDocument, '_id' | keyof typeof USER_FIELDS>): User {
  return {
    id: document._id.toHexString(),
    email: document.email,
    name: document.name,
    passwordHash: document.passwordHash,
    emailVerified: document.emailVerified === true,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}
