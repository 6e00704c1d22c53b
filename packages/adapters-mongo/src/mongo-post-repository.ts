import type { NewPost, Post, PostChanges, PostRepository } from '@inkwell/domain';
import { ObjectId, type Collection, type Db, type Filter, type Sort } from 'mongodb';
import { postsCollection, type PostDocument } from './collections.js';
import { toObjectId } from './object-ids.js';
import { callStore } from './store-errors.js';

// The published list is `find({ published: true }).sort({ createdAt: -1, _id: -1 })` with
// skip/limit, plus `countDocuments({ published: true })`. The index
// `{ published: 1, createdAt: -1, _id: -1 }` (ensureIndexes) serves both: an equality prefix on
// `published`, then keys already in list order, so neither query scans drafts or sorts in memory.
// `_id` breaks ties between equal `createdAt`s; ObjectIds from one process increase, so this is
// the domain's "id descending".
//
// An author's own posts (`GET /me/posts`) are `find({ authorId }).sort({ createdAt: -1, _id: -1 })`
// with skip/limit, plus `countDocuments({ authorId })`, served the same way by
// `{ authorId: 1, createdAt: -1, _id: -1 }`: equality on the author, then the list order, so a
// page reads only that author's keys, drafts included, and never sorts in memory.
const PUBLISHED: Filter<PostDocument> = { published: true };
const NEWEST_FIRST: Sort = { createdAt: -1, _id: -1 };

/** Posts in the `posts` collection. */
export class MongoPostRepository implements PostRepository {
  readonly #posts: Collection<PostDocument>;

  /** A repository over `db`'s `posts` collection. */
  constructor(db: Db) {
    this.#posts = postsCollection(db);
  }

  /** Stores the post under a new ObjectId. */
  async insert(newPost: NewPost): Promise<Post> {
    // Fields are picked one by one so nothing a caller smuggles onto the object is stored.
    const document: PostDocument = {
      _id: new ObjectId(),
      title: newPost.title,
      body: newPost.body,
      authorId: newPost.authorId,
      published: newPost.published,
      createdAt: newPost.createdAt,
      updatedAt: newPost.updatedAt,
    };
    return callStore(async () => {
      await this.#posts.insertOne(document);
      return toPost(document);
    });
  }

  /** The post with this id, or null; an id this adapter never issues costs no query. */
  async findById(id: string): Promise<Post | null> {
    const _id = toObjectId(id);
    if (!_id) return null;
    return callStore(async () => {
      const document = await this.#posts.findOne({ _id });
      return document && toPost(document);
    });
  }

  /** Sets only the given fields in one atomic step and returns the saved post, or null when it is gone. */
  async update(id: string, changes: PostChanges): Promise<Post | null> {
    const _id = toObjectId(id);
    if (!_id) return null;
    const set: Partial<Omit<PostDocument, '_id'>> = { updatedAt: changes.updatedAt };
    if (changes.title !== undefined) set.title = changes.title;
    if (changes.body !== undefined) set.body = changes.body;
    if (changes.published !== undefined) set.published = changes.published;
    return callStore(async () => {
      const document = await this.#posts.findOneAndUpdate({ _id }, { $set: set }, { returnDocument: 'after' });
      return document && toPost(document);
    });
  }

  /** Deletes the post; false when there was none. */
  async delete(id: string): Promise<boolean> {
    const _id = toObjectId(id);
    if (!_id) return false;
    return callStore(async () => (await this.#posts.deleteOne({ _id })).deletedCount === 1);
  }

  /** Deletes every post of the author in one command. */
  async deleteByAuthor(authorId: string): Promise<number> {
    return callStore(async () => (await this.#posts.deleteMany({ authorId })).deletedCount);
  }

  /** One page of published posts, newest first, and their total; the two queries run concurrently. */
  async listPublished(offset: number, limit: number): Promise<{ posts: readonly Post[]; total: number }> {
    return this.#page(PUBLISHED, offset, limit);
  }

  /** The number of published posts. */
  async countPublished(): Promise<number> {
    return callStore(() => this.#posts.countDocuments(PUBLISHED));
  }

  /** One page of an author's posts, drafts included, newest first, and their total. */
  async listByAuthor(authorId: string, offset: number, limit: number): Promise<{ posts: readonly Post[]; total: number }> {
    return this.#page({ authorId }, offset, limit);
  }

  /** The number of an author's posts. */
  async countByAuthor(authorId: string): Promise<number> {
    return callStore(() => this.#posts.countDocuments({ authorId }));
  }

  /** The posts `filter` selects, newest first, one page of them with their total; the two queries run concurrently. */
  async #page(filter: Filter<PostDocument>, offset: number, limit: number): Promise<{ posts: readonly Post[]; total: number }> {
    return callStore(async () => {
      const [total, documents] = await Promise.all([
        this.#posts.countDocuments(filter),
        // MongoDB reads limit 0 as "no limit", so an empty page is answered without a query.
        limit > 0 ? this.#posts.find(filter).sort(NEWEST_FIRST).skip(offset).limit(limit).toArray() : [],
      ]);
      return { posts: documents.map(toPost), total };
    });
  }
}

function toPost(document: PostDocument): Post {
  return {
    id: document._id.toHexString(),
    title: document.title,
    body: document.body,
    authorId: document.authorId,
    published: document.published,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}
