import { ANONYMOUS, isPending, resolveCaller, type Caller, type CallerSource } from '../accounts/caller.js';
import { DomainError } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import type { Post } from './post.js';
import type { PostRepository } from './ports.js';
import { CreateOwnPostSchema, CreatePostSchema, type CreatePostInput } from './schemas.js';

/** The access modes: `open` is the contract as written, `owner` ties every post to its author. */
export const POST_ACCESS_MODES = ['open', 'owner'] as const;
export type PostAccessMode = (typeof POST_ACCESS_MODES)[number];

/**
 * Who may read and write which posts. The post use cases ask their policy at each step, in the
 * order the rules come: who reads or writes, whether the post is visible to them, whether they
 * may change it, and whose a new post is.
 */
export interface PostAccessPolicy {
  readonly mode: PostAccessMode;
  /** Whether a post belongs to its author, so that who may change it depends on the post. */
  readonly postsHaveOwners: boolean;
  /**
   * Who reads: credentials that were sent must be valid (the `GET /me` failures); none is
   * anonymous. Answered at once, not as a promise, when nothing has to be found out, so that a
   * use case awaits only when there is something to wait for (see `isPending`): one more `await`
   * measured 5 to 10% of a `GET /posts/{id}`'s CPU time.
   */
  reader(caller: CallerSource): Caller | Promise<Caller>;
  /** Who writes, refusing a writer the policy requires to be known before anything else is read; at once as `reader` is. */
  writer(caller: CallerSource): Caller | Promise<Caller>;
  /** Whether `post` exists for `caller`; a post they may not see is answered as missing. */
  maySee(caller: Caller, post: Post): boolean;
  /** Refuses a `caller` who may see `post` but not change or delete it. */
  assertMayChange(caller: Caller, post: Post): void;
  /** The fields of a new post from its body: validated, with the author it is stored under. */
  newPostFields(writer: Caller, body: unknown): CreatePostInput;
}

/**
 * The contract as written: anyone reads any post, drafts included, and changes or deletes any
 * post; a new post's author is the `authorId` of its body. Credentials are never looked at.
 */
export const openPostAccess: PostAccessPolicy = {
  mode: 'open',
  postsHaveOwners: false,
  reader: () => ANONYMOUS,
  writer: () => ANONYMOUS,
  maySee: () => true,
  assertMayChange: () => undefined,
  newPostFields: (_writer, body) => parseInput(CreatePostSchema, body),
};

/**
 * Posts belong to their authors: writing needs a signed-in caller (checked before the post or the
 * body is looked at), a draft is visible to its author only (to anyone else it does not exist),
 * only the author changes or deletes a post, and a new post's author is the caller, who may
 * leave `authorId` out but may not name anyone else. A caller that sends credentials is
 * authenticated on every request, reads included.
 */
export const ownerPostAccess: PostAccessPolicy = {
  mode: 'owner',
  postsHaveOwners: true,
  reader: resolveCaller,
  writer(source) {
    const caller = resolveCaller(source);
    return isPending(caller) ? caller.then(signedIn) : signedIn(caller);
  },
  maySee: (caller, post) => post.published || isAuthor(caller, post),
  assertMayChange(caller, post) {
    if (!isAuthor(caller, post)) throw new DomainError('NotTheAuthor');
  },
  newPostFields(writer, body) {
    const { userId } = signedIn(writer);
    const { authorId = userId, ...fields } = parseInput(CreateOwnPostSchema, body);
    if (authorId !== userId) throw new DomainError('AuthorIdNotYours');
    return { ...fields, authorId };
  },
};

/** The policy of a mode. */
export function postAccessPolicy(mode: PostAccessMode): PostAccessPolicy {
  return mode === 'owner' ? ownerPostAccess : openPostAccess;
}

/** The caller when it is a signed-in user; `MissingAuthorization` for anyone else. */
function signedIn(caller: Caller): Extract<Caller, { kind: 'user' }> {
  if (caller.kind === 'anonymous') throw new DomainError('MissingAuthorization');
  return caller;
}

function isAuthor(caller: Caller, post: Post): boolean {
  return caller.kind === 'user' && caller.userId === post.authorId;
}

/**
 * The post `id` when `writer` may change it: `PostNotFound` when there is none or the writer may
 * not see it, the policy's refusal when they may see it but not change it.
 */
export async function findPostToChange(
  posts: PostRepository,
  access: PostAccessPolicy,
  writer: Caller,
  id: string,
): Promise<Post> {
  const post = await posts.findById(id);
  if (!post || !access.maySee(writer, post)) throw new DomainError('PostNotFound');
  access.assertMayChange(writer, post);
  return post;
}
