import type { IdempotencyRecord, IdempotencyReservation, IdempotencyStore, KeptOutcome } from '@inkwell/domain';
import type { Collection, Db, Document } from 'mongodb';
import { idempotencyKeysCollection, type IdempotencyKeyDocument } from './collections.js';
import { callStore, isDuplicateKeyError } from './store-errors.js';

/**
 * An `IdempotencyStore` in the `idempotencyKeys` collection, so every process and instance on the
 * database sees every key: one document per key, `{ _id: <key hash>, fingerprint, lease,
 * leaseUntil, postId, createdAt, expiresAt, expireAt, outcome }`, holding hashes, an id and times,
 * never a key, a body or a token in clear.
 *
 * `reserve` is one `findOneAndUpdate` with an update pipeline and `upsert`: MongoDB applies it to
 * the document atomically, so concurrent reservations of one key from any mix of processes are
 * serialised on it and one of them gets the lease. The pipeline starts the record afresh when
 * there is none or it expired, hands the lease over when the same request finds it let go (no
 * outcome, lease ended), and otherwise leaves it as it is; the same operation returns it. `complete`
 * and `release` are one conditional `updateOne` each, naming the lease, so a run whose lease was
 * taken over changes nothing. Keys are judged by `expiresAt`; the TTL index on `expireAt`
 * (ensureIndexes) only removes expired documents some time later.
 */
export class MongoIdempotencyStore implements IdempotencyStore {
  readonly #keys: Collection<IdempotencyKeyDocument>;

  /** A store over `db`'s `idempotencyKeys` collection. */
  constructor(db: Db) {
    this.#keys = idempotencyKeysCollection(db);
  }

  /** Reserves the key, takes it over, or answers what holds it, in one atomic update. */
  async reserve(reservation: IdempotencyReservation, now: number): Promise<IdempotencyRecord> {
    const document = await callStore(async () => {
      try {
        return await this.#reserveOnce(reservation, now);
      } catch (error) {
        // Two first reservations raced to insert the key's document and this one lost: the
        // document exists now, so the same update applies to it.
        if (isDuplicateKeyError(error)) return this.#reserveOnce(reservation, now);
        throw error;
      }
    });
    if (document === null) throw new Error('idempotencyKeys: an upsert returned no document');
    return toRecord(document);
  }

  /** Keeps the outcome and ends the lease, if `lease` still holds the key with no outcome. */
  async complete(key: string, lease: string, outcome: KeptOutcome): Promise<void> {
    await callStore(() => this.#keys.updateOne(heldBy(key, lease), { $set: { outcome, leaseUntil: 0 } }));
  }

  /** Ends the lease at once, if `lease` still holds the key with no outcome. */
  async release(key: string, lease: string): Promise<void> {
    await callStore(() => this.#keys.updateOne(heldBy(key, lease), { $set: { leaseUntil: 0 } }));
  }

  #reserveOnce(reservation: IdempotencyReservation, now: number): Promise<IdempotencyKeyDocument | null> {
    const fresh = { $or: [{ $eq: [{ $type: '$expiresAt' }, 'missing'] }, { $lte: ['$expiresAt', now] }] };
    const letGo = {
      $and: [
        { $eq: ['$fingerprint', { $literal: reservation.fingerprint }] },
        { $eq: [{ $ifNull: ['$outcome', null] }, null] },
        { $lte: ['$leaseUntil', now] },
      ],
    };
    /** `value` when the record starts afresh, the stored field otherwise. */
    const afresh = (field: string, value: unknown) => ({ $cond: ['$freshRecord', { $literal: value }, `$${field}`] });
    const leased = (field: string, value: unknown) => ({ $cond: [{ $or: ['$freshRecord', '$takenOver'] }, { $literal: value }, `$${field}`] });
    const pipeline: Document[] = [
      { $set: { freshRecord: fresh } },
      { $set: { takenOver: { $and: [{ $not: ['$freshRecord'] }, letGo] } } },
      {
        $set: {
          fingerprint: afresh('fingerprint', reservation.fingerprint),
          postId: afresh('postId', reservation.postId),
          createdAt: afresh('createdAt', reservation.createdAt),
          expiresAt: afresh('expiresAt', reservation.expiresAt),
          expireAt: afresh('expireAt', new Date(reservation.expiresAt)),
          outcome: afresh('outcome', null),
          lease: leased('lease', reservation.lease),
          leaseUntil: leased('leaseUntil', reservation.leaseUntil),
        },
      },
      { $unset: ['freshRecord', 'takenOver'] },
    ];
    return this.#keys.findOneAndUpdate({ _id: reservation.key }, pipeline, { upsert: true, returnDocument: 'after' });
  }
}

/** The key's document while `lease` holds it and no outcome is kept. */
function heldBy(key: string, lease: string) {
  return { _id: key, lease: { $eq: lease }, outcome: null };
}

function toRecord(document: IdempotencyKeyDocument): IdempotencyRecord {
  return {
    key: document._id,
    fingerprint: document.fingerprint,
    lease: document.lease,
    leaseUntil: document.leaseUntil,
    postId: document.postId,
    createdAt: document.createdAt,
    expiresAt: document.expiresAt,
    outcome: document.outcome ?? null,
  };
}
