import type { NewPost, Post, PostChanges, PostVersion, VersionedPost } from './post.js';

/**
 * Where posts live, each with its version (`PostVersion`): `FIRST_POST_VERSION` when stored, one
 * more at every update. Any string is a valid argument for `id`; one that names no post gives
 * null/false.
 */
export interface PostRepository {
  /** Stores the post under a new id, at the first version. */
  insert(post: NewPost): Promise<Post>;
  /** An id in this store's form that it never handed out before, for a post about to be stored with `insertAs`. */
  newId(): string;
  /**
   * Stores the post under `id` (one `newId` gave), at the first version; null, storing nothing,
   * when a post with that id is stored already. A create that may run twice (under an
   * idempotency key) fixes its id first, so that a second run stores nothing new.
   */
  insertAs(id: string, post: NewPost): Promise<Post | null>;
  /** The post with its version, or null. */
  findById(id: string): Promise<VersionedPost | null>;
  /**
   * Applies the changes and moves the version on by one, in one atomic step, while the post exists
   * and, when `versions` is given, its version is one of them; `updatedAt` becomes the later of the
   * stored one and the given one, so that changes crossing on their way never move it backwards; answers the saved post with its new
   * version, or null, changing nothing, when the post is gone or its version is not one of `versions`.
   */
  update(id: string, changes: PostChanges, versions?: readonly PostVersion[]): Promise<VersionedPost | null>;
  /** Deletes the post, in one atomic step with the same condition as `update`; false when nothing was deleted. */
  delete(id: string, versions?: readonly PostVersion[]): Promise<boolean>;
  /**
   * Published posts newest first (see `comparePostsNewestFirst`), skipping `offset` and
   * returning at most `limit`, with the total number of published posts.
   */
  listPublished(offset: number, limit: number): Promise<{ posts: readonly Post[]; total: number }>;
  /** The number of published posts. */
  countPublished(): Promise<number>;
  /**
   * The posts whose `authorId` is `authorId`, drafts included, in the same order and with the
   * same paging as `listPublished`, with their total.
   */
  listByAuthor(authorId: string, offset: number, limit: number): Promise<{ posts: readonly Post[]; total: number }>;
  /** The number of posts whose `authorId` is `authorId`. */
  countByAuthor(authorId: string): Promise<number>;
  /** Deletes every post whose `authorId` is `authorId` (an account being deleted); answers how many. */
  deleteByAuthor(authorId: string): Promise<number>;
}

/** What an idempotency key's first request answered, kept for the key's later requests. */
export type KeptOutcome = 'created' | 'refused';

/**
 * A reservation of an idempotency key for one run of a create: all a store needs to keep, and
 * nothing a client sent in clear (the key and the request are hashes; no body, no token).
 */
export interface IdempotencyReservation {
  /** The key's hash, with the scope it belongs to (an account, or the service). */
  readonly key: string;
  /** A hash of the request that first came with the key (method, path, body bytes). */
  readonly fingerprint: string;
  /** A random id of this run, which holds the key until `leaseUntil`. */
  readonly lease: string;
  /** Until when the run holds the key, in milliseconds since the Unix epoch: past it, the same request may take it over. */
  readonly leaseUntil: number;
  /** The id the post is stored under, fixed before it is stored, so a second run stores nothing new. */
  readonly postId: string;
  /** When the post was created: its `createdAt` and `updatedAt`, fixed with its id. */
  readonly createdAt: number;
  /** When the store forgets the key (the reservation's time plus the rules' time to live). */
  readonly expiresAt: number;
}

/** What a store holds for a key: its reservation (the lease of the run that holds it last), and the outcome once kept. */
export interface IdempotencyRecord extends IdempotencyReservation {
  /** The first request's answer, once kept; null while none is (a run holds the key, or let it go). */
  readonly outcome: KeptOutcome | null;
}

/**
 * Where idempotency keys are kept, one record per key, each forgotten at its `expiresAt`. Every
 * method is one atomic step of the store, so that concurrent requests with one key, on any number
 * of processes, see each other's reservations.
 */
export interface IdempotencyStore {
  /**
   * Reserves the key for `reservation`'s run, or answers what holds it, in one atomic step. A key
   * with no record, or whose record expired by `now`, gets `reservation` as it is (outcome null).
   * A record with the same fingerprint, no outcome and a lease that ended by `now` is taken over:
   * its lease becomes `reservation`'s, everything else is kept (the post's id and time above all).
   * Any other record is answered unchanged. The answer is the record as it stands after the step.
   */
  reserve(reservation: IdempotencyReservation, now: number): Promise<IdempotencyRecord>;
  /** Keeps `outcome` for the key, and ends the lease, if `lease` still holds the key and no outcome is kept; otherwise changes nothing. */
  complete(key: string, lease: string, outcome: KeptOutcome): Promise<void>;
  /** Ends the lease at once, keeping the record (the next request with the key runs again, under the same post id), if `lease` still holds the key with no outcome kept. */
  release(key: string, lease: string): Promise<void>;
}
