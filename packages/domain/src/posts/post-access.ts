import { ANONYMOUS, type Caller } from '../accounts/caller.js';
import type { Credentials } from '../accounts/credentials.js';
import { DomainError } from '../shared/errors.js';
import type { Post } from './post.js';
import { CreateOwnPostSchema, CreatePostSchema } from './schemas.js';

/** The access modes: `open` is the contract as written, `owner` ties every post to its author. */
export const POST_ACCESS_MODES = ['open', 'owner'] as const;
export type PostAccessMode = (typeof POST_ACCESS_MODES)[number];

/** The post use cases, by name: which of them exist is the access policy's to say (`offers`). */
export const POST_USE_CASES = ['listPublishedPosts', 'getPost', 'createPost', 'updatePost', 'deletePost', 'listOwnPosts'] as const;
export type PostUseCase = (typeof POST_USE_CASES)[number];

/**
 * Who may read, write and list which posts: every such rule, and nothing else, in one place. The
 * post use cases ask their policy at each step, in the order the rules come: whether it offers
 * them at all, who reads or writes, whether the post exists for them, whether they may change it,
 * and whose a new post is.
 */
export interface PostAccessPolicy {
  readonly mode: PostAccessMode;
  /**
   * Whether the use case exists under this policy. `listOwnPosts` needs posts that belong to their
   * authors: where they do not, it is not offered, and answers `NotOffered`.
   */
  offers(useCase: PostUseCase): boolean;
  /**
   * Who reads, when the policy can tell from the credentials alone; null when they must be checked
   * first (by the `GET /me` rules), since credentials that are sent must be valid.
   */
  reader(credentials: Credentials): Caller | null;
  /** Who writes, likewise; refuses at once a writer who must be signed in and presented nothing. */
  writer(credentials: Credentials): Caller | null;
  /** `post` as `reader` finds it: `PostNotFound` when there is none, or it is hidden from them. */
  visible(reader: Caller, post: Post | null): Post;
  /** `post` when `writer` may change or delete it: `PostNotFound` as in `visible`, or the refusal of someone who may see but not change it. */
  changeable(writer: Caller, post: Post | null): Post;
  /** The rules a new post's body is validated by. */
  readonly newPostSchema: typeof CreatePostSchema | typeof CreateOwnPostSchema;
  /** The author a new post by `writer` is stored under, given the `authorId` its body names (if any). */
  authorOf(writer: Caller, named: string | undefined): string;
}

/**
 * The contract as written: anyone reads any post, drafts included, and changes or deletes any
 * post; a new post's author is the `authorId` of its body. Credentials are never looked at. Posts
 * have no owners, so nobody has posts of their own: `listOwnPosts` is not offered.
 */
export const openPostAccess: PostAccessPolicy = {
  mode: 'open',
  offers: (useCase) => useCase !== 'listOwnPosts',
  reader: () => ANONYMOUS,
  writer: () => ANONYMOUS,
  visible: (_reader, post) => found(post),
  changeable: (_writer, post) => found(post),
  newPostSchema: CreatePostSchema,
  authorOf(_writer, named) {
    // CreatePostSchema requires it; a caller that skipped validation gets the same answer.
    if (named === undefined) throw new DomainError('ValidationFailed', [{ path: 'authorId', message: 'is required' }]);
    return named;
  },
};

/**
 * Posts belong to their authors: writing needs a signed-in caller (checked before the post or the
 * body is looked at), a draft exists for its author only, only the author changes or deletes a
 * post, and a new post's author is the caller, who may leave `authorId` out but may not name anyone
 * else. Credentials that are sent are checked on every request, reads included. Every signed-in
 * caller lists their own posts, drafts included (`listOwnPosts`).
 */
export const ownerPostAccess: PostAccessPolicy = {
  mode: 'owner',
  offers: () => true,
  reader: (credentials) => (credentials.scheme === 'none' ? ANONYMOUS : null),
  writer(credentials) {
    if (credentials.scheme === 'none') throw new DomainError('MissingAuthorization');
    return null;
  },
  visible: (reader, post) => (post && (post.published || isAuthor(reader, post)) ? post : found(null)),
  changeable(writer, post) {
    const visible = ownerPostAccess.visible(writer, post);
    if (!isAuthor(writer, visible)) throw new DomainError('NotTheAuthor');
    return visible;
  },
  newPostSchema: CreateOwnPostSchema,
  authorOf(writer, named) {
    if (writer.kind === 'anonymous') throw new DomainError('MissingAuthorization');
    if (named !== undefined && named !== writer.userId) throw new DomainError('AuthorIdNotYours');
    return writer.userId;
  },
};

/** The policy of a mode. */
export function postAccessPolicy(mode: PostAccessMode): PostAccessPolicy {
  return mode === 'owner' ? ownerPostAccess : openPostAccess;
}

/** The post, or `PostNotFound` when there is none. */
function found(post: Post | null): Post {
  if (!post) throw new DomainError('PostNotFound');
  return post;
}

function isAuthor(caller: Caller, post: Post): boolean {
  return caller.kind === 'user' && caller.userId === post.authorId;
}
