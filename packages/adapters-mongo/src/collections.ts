import type { KeptOutcome, MessageKind, PostAccessMode } from '@inkwell/domain';
import type { Collection, Db, ObjectId } from 'mongodb';

/** A session as stored inside its user's document. The id is random: tokens carry it, the database never holds a token. */
export interface SessionDocument {
  id: string;
  createdAt: number;
  expiresAt: number;
}

/** A mailed link as its account keeps it: the hash of its token, never the token (see `LinkRecord`). */
export interface LinkDocument {
  tokenHash: string;
  email: string;
  requestedAt: number;
  expiresAt: number;
}

/**
 * A user as stored: the domain's fields, with the id kept as the document's ObjectId, and the
 * account's sessions (in the order they started) in the same document, so that checking a token is one read
 * and every change to an account's sessions is one atomic update of one document.
 */
export interface UserDocument {
  _id: ObjectId;
  email: string;
  name: string;
  passwordHash: string;
  /** Absent on accounts stored before addresses were verified: unverified. */
  emailVerified?: boolean;
  createdAt: number;
  updatedAt: number;
  sessions: SessionDocument[];
  /** When the password last changed; absent while it never did (then `createdAt` counts). */
  passwordChangedAt?: number;
  /** The live password reset links, oldest first (at most the few a record keeps); absent or empty when there is none. */
  passwordResets?: LinkDocument[];
  /**
   * The one password reset link that versions keeping a single link recorded: still honoured
   * until it expires, and voided with the others.
   */
  passwordReset?: LinkDocument | null;
  /** The e-mail verification link last sent and not yet used; null or absent when there is none. */
  emailVerification?: LinkDocument | null;
  /** Since when tokens issued without a session are refused; absent while they are not. */
  tokensWithoutSessionEndedAt?: number;
  /** The issue time of the one token without a session accepted in spite of that (a password change's caller); null or absent when none is. */
  keptTokenWithoutSession?: number | null;
  /** Until when the account is being deleted (a lease: past it, the account is as it was); null or absent when it is not. */
  deletingUntil?: number | null;
}

/** A post as stored: the domain's fields, with the id kept as the document's ObjectId, and its version. */
export interface PostDocument {
  _id: ObjectId;
  title: string;
  body: string;
  authorId: string;
  published: boolean;
  createdAt: number;
  updatedAt: number;
  /** The post's version (`PostVersion`); absent on a post stored before posts had versions, which is at version 0 until its first update. */
  version?: number;
}

/** The `users` collection, typed by its documents. */
export function usersCollection(db: Db): Collection<UserDocument> {
  return db.collection<UserDocument>('users');
}

/** The `posts` collection, typed by its documents. */
export function postsCollection(db: Db): Collection<PostDocument> {
  return db.collection<PostDocument>('posts');
}

/**
 * One key's window for one abuse rule (see MongoAttemptLimiter). No e-mail or address is stored:
 * `_id` is the rule's name and an HMAC of the key.
 */
export interface AttemptLimitDocument {
  _id: string;
  /** A random id of the current window, told apart from the key's earlier and later ones. */
  window: string;
  /** Attempts counted in the window. */
  count: number;
  /** When the window ends, in milliseconds since the Unix epoch. */
  endsAt: number;
  /** `endsAt` as a date, for the TTL index that removes ended windows. */
  expireAt: Date;
  /** The verdict of the latest take, which that take reads back. */
  allowed: boolean;
}

/** The `attemptLimits` collection, typed by its documents. */
export function attemptLimitsCollection(db: Db): Collection<AttemptLimitDocument> {
  return db.collection<AttemptLimitDocument>('attemptLimits');
}

/**
 * An idempotency key's record (see MongoIdempotencyStore). No key or request in clear: `_id` and
 * `fingerprint` are hashes the domain made.
 */
export interface IdempotencyKeyDocument {
  /** The key's hash, with its scope. */
  _id: string;
  fingerprint: string;
  /** The run that holds the key, until `leaseUntil` (milliseconds since the Unix epoch). */
  lease: string;
  leaseUntil: number;
  /** The id of the post the key creates, and its time, fixed when the key was first reserved. */
  postId: string;
  createdAt: number;
  /** When the key is forgotten, in milliseconds since the Unix epoch. */
  expiresAt: number;
  /** `expiresAt` as a date, for the TTL index that removes forgotten keys. */
  expireAt: Date;
  /** The first request's answer, once kept. */
  outcome: KeptOutcome | null;
}

/** The `idempotencyKeys` collection, typed by its documents. */
export function idempotencyKeysCollection(db: Db): Collection<IdempotencyKeyDocument> {
  return db.collection<IdempotencyKeyDocument>('idempotencyKeys');
}

/** What the processes serving this database last recorded about how they serve it (see recordPostsAccess). */
export interface DeploymentDocument {
  _id: 'postsAccess';
  /** The posts access mode of the process that started last. */
  mode: PostAccessMode;
  /** When it started, in milliseconds since the Unix epoch. */
  recordedAt: number;
}

/** The `deployment` collection, typed by its documents. */
export function deploymentCollection(db: Db): Collection<DeploymentDocument> {
  return db.collection<DeploymentDocument>('deployment');
}

/**
 * A message waiting in the outbox (see MongoOutbox): the domain's fields, the id as the
 * document's ObjectId, the link's token sealed, and who holds it until when.
 */
export interface OutboxDocument {
  _id: ObjectId;
  kind: MessageKind;
  to: string;
  userId?: string;
  /**
   * The link's token, sealed: AES-256-GCM under the outbox key, with the message's id as
   * associated data; base64url of the 12-byte nonce, the ciphertext and the 16-byte tag. Never in clear.
   */
  sealedToken?: string;
  requestedAt: number;
  /** Failed attempts so far. */
  attempts: number;
  /** When it is next due, in milliseconds since the Unix epoch. */
  nextAttemptAt: number;
  /** The process that holds it, or null when none does. */
  holder: string | null;
  /** Until when `holder` holds it, in the database's time (milliseconds since the Unix epoch); 0 when nobody does. */
  leaseUntil: number;
}

/** The `outbox` collection, typed by its documents. */
export function outboxCollection(db: Db): Collection<OutboxDocument> {
  return db.collection<OutboxDocument>('outbox');
}
