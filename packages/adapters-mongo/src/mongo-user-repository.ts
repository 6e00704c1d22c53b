import { DomainError, type NewUser, type User, type UserRepository } from '@inkwell/domain';
import { MongoServerError, ObjectId, type Collection, type Db } from 'mongodb';
import { usersCollection, type UserDocument } from './collections.js';
import { toObjectId } from './object-ids.js';
import { callStore } from './store-errors.js';

const DUPLICATE_KEY = 11000;

/** Users in the `users` collection; the unique index on `email` (see ensureIndexes) decides concurrent signups. */
export class MongoUserRepository implements UserRepository {
  readonly #users: Collection<UserDocument>;

  /** A repository over `db`'s `users` collection. */
  constructor(db: Db) {
    this.#users = usersCollection(db);
  }

  /** Stores the user under a new ObjectId; a taken e-mail is `DomainError('EmailAlreadyInUse')`. */
  async insert(newUser: NewUser): Promise<User> {
    // Fields are picked one by one so nothing a caller smuggles onto the object is stored.
    const document: UserDocument = {
      _id: new ObjectId(),
      email: newUser.email,
      name: newUser.name,
      passwordHash: newUser.passwordHash,
      createdAt: newUser.createdAt,
      updatedAt: newUser.updatedAt,
    };
    return callStore(async () => {
      try {
        await this.#users.insertOne(document);
      } catch (error) {
        // Only `_id` and `email` are unique, and a fresh ObjectId does not collide.
        if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) throw new DomainError('EmailAlreadyInUse');
        throw error;
      }
      return toUser(document);
    });
  }

  /** The user with this e-mail, or null. */
  async findByEmail(email: string): Promise<User | null> {
    return callStore(async () => {
      const document = await this.#users.findOne({ email });
      return document && toUser(document);
    });
  }

  /** The user with this id, or null; an id this adapter never issues costs no query. */
  async findById(id: string): Promise<User | null> {
    const _id = toObjectId(id);
    if (!_id) return null;
    return callStore(async () => {
      const document = await this.#users.findOne({ _id });
      return document && toUser(document);
    });
  }
}

function toUser(document: UserDocument): User {
  return {
    id: document._id.toHexString(),
    email: document.email,
    name: document.name,
    passwordHash: document.passwordHash,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}
