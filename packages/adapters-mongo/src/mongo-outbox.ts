import type { MessageKind, NewMessage, Outbox, OutboxMessage } from '@inkwell/domain';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ObjectId, type Collection, type Db, type Document } from 'mongodb';
import { outboxCollection, type OutboxDocument } from './collections.js';
import { toObjectId } from './object-ids.js';
import { callStore } from './store-errors.js';

const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/** How a MongoOutbox keeps tokens, and what it says about a message it cannot read. */
export interface MongoOutboxOptions {
  /**
   * The 32-byte AES-256-GCM key that seals a message's token before it is stored and opens it
   * when the message is claimed. Every process on the database must use the same one.
   */
  readonly tokenKey: Uint8Array;
  /**
   * Called with a message whose token no longer opens under `tokenKey` (the key changed since it
   * was stored): the outbox removes it, since its link could only ever be wrong, and says so here.
   */
  readonly onUnreadable?: (message: { readonly id: string; readonly kind: MessageKind }) => void;
}

/**
 * An `Outbox` in the `outbox` collection, shared by every process on the database: one document
 * per message, `{ _id, kind, to, userId?, sealedToken?, requestedAt, attempts, nextAttemptAt,
 * holder, leaseUntil }`, removed once delivered or dropped.
 *
 * A token is stored sealed (AES-256-GCM, a new nonce per message, the message's id as associated
 * data so a sealed token cannot be moved to another message) and opened on claim: the collection
 * never holds it in clear, and a copy of the database without the key holds no usable link.
 *
 * Claiming is one `findOneAndUpdate` per message, sorted by `nextAttemptAt`, whose filter takes
 * only a message due and held by nobody (`leaseUntil` passed): MongoDB applies it to the document
 * atomically, so two processes claiming at once never both get one message. Leases are in the
 * database's time: the update that grants or renews one sets `leaseUntil` from `$$NOW` (a renewal
 * never earlier than it was), and a claim compares it with `$$NOW`, so a lease runs from the moment
 * the database grants it however long the request took to get there, and processes whose clocks
 * differ agree on when it ends.
 * `renew`, `remove` and `retryLater` name the holder in their filter, so a process whose message
 * went to another changes nothing. The index `{ nextAttemptAt: 1, leaseUntil: 1 }`
 * (ensureIndexes) serves the claim.
 */
export class MongoOutbox implements Outbox {
  readonly #messages: Collection<OutboxDocument>;
  readonly #key: Uint8Array;
  readonly #onUnreadable: NonNullable<MongoOutboxOptions['onUnreadable']>;

  /** An outbox over `db`'s `outbox` collection, sealing tokens under `options.tokenKey`. */
  constructor(db: Db, options: MongoOutboxOptions) {
    if (options.tokenKey.length !== KEY_BYTES) throw new RangeError(`MongoOutbox: tokenKey must be ${KEY_BYTES} bytes`);
    this.#messages = outboxCollection(db);
    this.#key = options.tokenKey;
    this.#onUnreadable = options.onUnreadable ?? (() => undefined);
  }

  /** Stores the message, its token sealed, due at once and held by nobody. */
  async add(message: NewMessage): Promise<OutboxMessage> {
    const _id = new ObjectId();
    // Fields are picked one by one so nothing a caller smuggles onto the object is stored.
    const document: OutboxDocument = {
      _id,
      kind: message.kind,
      to: message.to,
      ...(message.userId === undefined ? {} : { userId: message.userId }),
      ...(message.token === undefined ? {} : { sealedToken: this.#seal(message.token, _id) }),
      requestedAt: message.requestedAt,
      attempts: 0,
      nextAttemptAt: message.requestedAt,
      holder: null,
      leaseUntil: 0,
    };
    return callStore(async () => {
      await this.#messages.insertOne(document);
      return toMessage(document, message.token);
    });
  }

  /** Leases up to `max` due messages to `holder` for `leaseMs` of the database's time, the earliest due first, one atomic update each. */
  async claim(holder: string, now: number, leaseMs: number, max: number): Promise<OutboxMessage[]> {
    const claimed: OutboxMessage[] = [];
    await callStore(async () => {
      while (claimed.length < max) {
        const document = await this.#messages.findOneAndUpdate(
          { nextAttemptAt: { $lte: now }, $expr: { $lte: ['$leaseUntil', DATABASE_NOW] } },
          [{ $set: { holder: { $literal: holder }, leaseUntil: leaseFromNow(leaseMs) } }],
          { sort: { nextAttemptAt: 1, _id: 1 }, returnDocument: 'after' },
        );
        if (document === null) return;
        const message = this.#open(document);
        if (message !== null) {
          claimed.push(message);
          continue;
        }
        await this.#messages.deleteOne({ _id: document._id, holder: { $eq: holder } });
        this.#onUnreadable({ id: document._id.toHexString(), kind: document.kind });
      }
    });
    return claimed;
  }

  /**
   * Extends the lease of a message `holder` still holds to `leaseMs` from the database's now, never
   * earlier than it ends already, in one update whose filter names the holder.
   */
  async renew(id: string, holder: string, _now: number, leaseMs: number): Promise<boolean> {
    const _id = toObjectId(id);
    if (!_id) return false;
    const extended = [{ $set: { leaseUntil: { $max: ['$leaseUntil', leaseFromNow(leaseMs)] } } }];
    return callStore(async () => (await this.#messages.updateOne({ _id, holder: { $eq: holder } }, extended)).matchedCount === 1);
  }

  /** Removes the message if `holder` still holds it. */
  async remove(id: string, holder: string): Promise<void> {
    const _id = toObjectId(id);
    if (!_id) return;
    await callStore(() => this.#messages.deleteOne({ _id, holder: { $eq: holder } }));
  }

  /** Releases the message `holder` still holds: one more attempt, due at `nextAttemptAt`. */
  async retryLater(id: string, holder: string, nextAttemptAt: number): Promise<void> {
    const _id = toObjectId(id);
    if (!_id) return;
    await callStore(() =>
      this.#messages.updateOne(
        { _id, holder: { $eq: holder } },
        { $inc: { attempts: 1 }, $set: { nextAttemptAt, holder: null, leaseUntil: 0 } },
      ),
    );
  }

  #seal(token: string, id: ObjectId): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    cipher.setAAD(id.id);
    const sealed = Buffer.concat([nonce, cipher.update(token, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return sealed.toString('base64url');
  }

  /** The message as the domain knows it, its token opened; null when the token does not open under this key. */
  #open(document: OutboxDocument): OutboxMessage | null {
    if (document.sealedToken === undefined) return toMessage(document, undefined);
    const sealed = Buffer.from(document.sealedToken, 'base64url');
    if (sealed.length < NONCE_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, sealed.subarray(0, NONCE_BYTES));
      decipher.setAAD(document._id.id);
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      const token = Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
      return toMessage(document, token.toString('utf8'));
    } catch {
      return null;
    }
  }
}

/** The database's time in milliseconds, as an aggregation expression. */
const DATABASE_NOW: Document = { $toLong: '$$NOW' };

/** A lease's end `leaseMs` after the database's now, as an aggregation expression. */
function leaseFromNow(leaseMs: number): Document {
  return { $add: [DATABASE_NOW, leaseMs] };
}

/** The domain's message from a stored document, with its token in clear when it has one. */
function toMessage(document: OutboxDocument, token: string | undefined): OutboxMessage {
  return {
    kind: document.kind,
    to: document.to,
    ...(document.userId === undefined ? {} : { userId: document.userId }),
    ...(token === undefined ? {} : { token }),
    requestedAt: document.requestedAt,
    id: document._id.toHexString(),
    attempts: document.attempts,
    nextAttemptAt: document.nextAttemptAt,
  };
}
