import { FIRST_POST_VERSION, type NewPost, type Post, type PostChanges, type PostRepository, type PostVersion, type VersionedPost } from '@inkwell/domain';
import { ObjectId, type Collection, type Db, type Filter, type Sort } from 'mongodb';
import { postsCollection, type PostDocument } from './collections.js';
import { toObjectId } from './object-ids.js';
import { callStore, isDuplicateKeyError } from './store-errors.js';

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
//
// A post's version is its document's `version`, set to 1 by the insert and moved on by `$inc` in
// the same update that changes the post. A conditional write puts the versions it accepts in the
// filter of its one `findOneAndUpdate` or `deleteOne`, so the check and the write are one atomic
// step of the server. A post stored before versions has none: it reads as version 0, which the
// filter matches as a missing field, and its first update makes it 1.
const PUBLISHED: Filter<PostDocument> = { published: true };
const NEWEST_FIRST: Sort = { createdAt: -1, _id: -1 };

/** Posts in the `posts` collection. */
export class MongoPostRepository implements PostRepository {
  readonly #posts: Collection<PostDocument>;

  /** A repository over `db`'s `posts` collection. */
  constructor(db: Db) {
    this.#posts = postsCollection(db);
  }

  /** Stores the post under a new ObjectId, at the first version. */
  async insert(newPost: NewPost): Promise<Post> {
    const document = toDocument(new ObjectId(), newPost);
    return callStore(async () => {
      await this.#posts.insertOne(document);
      return toPost(document);
    });
  }

  /** A new ObjectId's hex string. */
  newId(): string {
    return new ObjectId().toHexString();
  }

  /** Stores the post under `id`, at the first version; null when the `_id` index finds it stored already. */
  async insertAs(id: string, newPost: NewPost): Promise<Post | null> {
    const _id = toObjectId(id);
    if (!_id) throw new Error(`MongoPostRepository.insertAs: ${JSON.stringify(id.slice(0, 40))} is not an id newId gives`);
    const document = toDocument(_id, newPost);
    return callStore(async () => {
      try {
        await this.#posts.insertOne(document);
      } catch (error) {
        if (isDuplicateKeyError(error)) return null;
        throw error;
      }
      return toPost(document);
    });
  }

  /** The post with this id and its version, or null; an id this adapter never issues costs no query. */
  async findById(id: string): Promise<VersionedPost | null> {
    const _id = toObjectId(id);
    if (!_id) return null;
    return callStore(async () => {
      const document = await this.#posts.findOne({ _id });
      return document && toVersioned(document);
    });
  }

  /**
   * Sets only the given fields, keeps the later of the stored and the given `updatedAt` (`$max`),
   * and moves the version on, in one atomic step whose filter holds the condition; the saved post,
   * or null when it is gone or at another version.
   */
  async update(id: string, changes: PostChanges, versions?: readonly PostVersion[]): Promise<VersionedPost | null> {
    const _id = toObjectId(id);
    if (!_id) return null;
    const set: Partial<Omit<PostDocument, '_id'>> = {};
    if (changes.title !== undefined) set.title = changes.title;
    if (changes.body !== undefined) set.body = changes.body;
    if (changes.published !== undefined) set.published = changes.published;
    return callStore(async () => {
      const document = await this.#posts.findOneAndUpdate(withVersions({ _id }, versions), { ...(Object.keys(set).length > 0 && { $set: set }), $max: { updatedAt: changes.updatedAt }, $inc: { version: 1 } }, { returnDocument: 'after' });
      return document && toVersioned(document);
    });
  }

  /** Deletes the post, in one atomic step whose filter holds the condition; false when nothing was deleted. */
  async delete(id: string, versions?: readonly PostVersion[]): Promise<boolean> {
    const _id = toObjectId(id);
    if (!_id) return false;
    return callStore(async () => (await this.#posts.deleteOne(withVersions({ _id }, versions))).deletedCount === 1);
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

/**
 * `filter` narrowed to the posts at one of `versions`, when given; version 0 is a post stored
 * before versions, whose field is missing (which `$in: [null]` matches).
 */
function withVersions(filter: Filter<PostDocument>, versions: readonly PostVersion[] | undefined): Filter<PostDocument> {
  if (versions === undefined) return filter;
  // `null` is how a query names a missing field; the driver's types know `version` only as a number.
  const matched = (versions.includes(0) ? [...versions, null] : [...versions]) as number[];
  return { ...filter, version: { $in: matched } };
}

/** The document of a new post at the first version; fields are picked one by one so nothing a caller smuggles onto the object is stored. */
function toDocument(_id: ObjectId, newPost: NewPost): PostDocument {
  return {
    _id,
    title: newPost.title,
    body: newPost.body,
    authorId: newPost.authorId,
    published: newPost.published,
    createdAt: newPost.createdAt,
    updatedAt: newPost.updatedAt,
    version: FIRST_POST_VERSION,
  };
}

function toVersioned(document: PostDocument): VersionedPost {
  return { post: toPost(document), version: document.version ?? 0 };
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
