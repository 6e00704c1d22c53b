import type { AttemptLimiter, AttemptVerdict, Clock } from '@inkwell/domain';
import { createHmac, randomBytes } from 'node:crypto';
import { MongoServerError, type Collection, type Db, type Document } from 'mongodb';
import { attemptLimitsCollection, type AttemptLimitDocument } from './collections.js';
import { callStore } from './store-errors.js';

const DUPLICATE_KEY = 11000;

/** One rule counted in MongoDB. */
export interface MongoAttemptLimiterOptions {
  /** The rule's name (`login-email`, …): keeps the counts of rules sharing the collection apart. */
  readonly rule: string;
  /** Attempts allowed per key in one window; 0 turns the rule off. */
  readonly max: number;
  readonly windowSeconds: number;
  /** Where windows get their times; every process on the database should run on a synchronised clock. */
  readonly clock: Clock;
  /**
   * The HMAC key that turns a key (an e-mail, an address) into its stored id, so the collection
   * holds no e-mail or address in clear, nor a plain hash a dictionary could reverse. Every
   * process on the database must use the same one.
   */
  readonly keySecret: string | Uint8Array;
}

/**
 * An `AttemptLimiter` whose counts live in the `attemptLimits` collection, so every process and
 * instance on the database counts together. One document per rule and key:
 * `{ _id: "<rule>:<HMAC of the key>", window, count, endsAt, expireAt, allowed }`, where `window`
 * is a random id of the window the count belongs to, which `take` answers and `giveBack` names,
 * so an attempt given back leaves its own window and never a later one.
 *
 * `take` is one `findOneAndUpdate` with an update pipeline and `upsert`: MongoDB applies it to
 * the document atomically, so concurrent takes from any mix of processes are serialised on it
 * and exactly `max` pass. The pipeline opens a new window when there is none or it has ended,
 * counts the attempt only when under `max`, and records its verdict in `allowed`, which the
 * same operation returns. Windows are judged by `endsAt`; the TTL index on `expireAt`
 * (ensureIndexes) only removes ended documents some time later.
 *
 * Errors from an unreachable database become `StoreUnavailable`, so a limit that cannot be
 * counted fails the attempt (503) instead of letting it through.
 */
export class MongoAttemptLimiter implements AttemptLimiter {
  readonly #limits: Collection<AttemptLimitDocument>;
  readonly #options: MongoAttemptLimiterOptions;
  readonly #windowMs: number;

  /** A limiter for one rule over `db`'s `attemptLimits` collection. */
  constructor(db: Db, options: MongoAttemptLimiterOptions) {
    this.#limits = attemptLimitsCollection(db);
    this.#options = options;
    this.#windowMs = options.windowSeconds * 1000;
  }

  /** Counts one attempt when under the limit, in one atomic update. */
  async take(key: string): Promise<AttemptVerdict> {
    if (this.#options.max <= 0) return { allowed: true };
    const now = this.#options.clock.now();
    const _id = this.#id(key);
    const document = await callStore(async () => {
      try {
        return await this.#takeOnce(_id, now);
      } catch (error) {
        // Two first attempts raced to insert the key's document and this one lost: the
        // document exists now, so the same update applies to it.
        if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) return this.#takeOnce(_id, now);
        throw error;
      }
    });
    if (document === null) throw new Error('attemptLimits: an upsert returned no document');
    if (document.allowed) return { allowed: true, window: document.window };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((document.endsAt - now) / 1000)) };
  }

  /** Uncounts one attempt from `window` if that is still the key's window; a window left with none is removed, so the next attempt opens a new one. */
  async giveBack(key: string, window: string): Promise<void> {
    const _id = this.#id(key);
    await callStore(async () => {
      const document = await this.#limits.findOneAndUpdate(
        { _id, window: { $eq: window }, count: { $gt: 0 } },
        { $inc: { count: -1 } },
        { returnDocument: 'after' },
      );
      // Conditional, so an attempt another process counted in between keeps the window.
      if (document !== null && document.count <= 0) await this.#limits.deleteOne({ _id, window: { $eq: window }, count: { $lte: 0 } });
    });
  }

  /** Forgets every attempt counted for `key`. */
  async reset(key: string): Promise<void> {
    await callStore(() => this.#limits.deleteOne({ _id: this.#id(key) }));
  }

  #takeOnce(_id: string, now: number): Promise<AttemptLimitDocument | null> {
    const endsAt = now + this.#windowMs;
    const newWindow = { $literal: randomBytes(12).toString('base64url') };
    const opensWindow = { $or: [{ $eq: [{ $type: '$endsAt' }, 'missing'] }, { $lte: ['$endsAt', now] }] };
    const pipeline: Document[] = [
      { $set: { opensWindow } },
      { $set: { allowed: { $or: ['$opensWindow', { $lt: ['$count', this.#options.max] }] } } },
      {
        $set: {
          // A window counted before windows had ids gets one now.
          window: { $cond: ['$opensWindow', newWindow, { $ifNull: ['$window', newWindow] }] },
          count: { $cond: ['$opensWindow', 1, { $cond: ['$allowed', { $add: ['$count', 1] }, '$count'] }] },
          endsAt: { $cond: ['$opensWindow', endsAt, '$endsAt'] },
          expireAt: { $cond: ['$opensWindow', new Date(endsAt), '$expireAt'] },
        },
      },
      { $unset: 'opensWindow' },
    ];
    return this.#limits.findOneAndUpdate({ _id }, pipeline, { upsert: true, returnDocument: 'after' });
  }

  #id(key: string): string {
    const digest = createHmac('sha256', this.#options.keySecret).update(key, 'utf8').digest('base64url');
    return `${this.#options.rule}:${digest}`;
  }
}
