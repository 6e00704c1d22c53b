import { authenticate, stillAuthenticated, type Authenticated } from '../accounts/authenticate.js';
import { callerOf, type Caller } from '../accounts/caller.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { TokenClaims } from '../accounts/ports.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import { isDomainError } from '../shared/errors.js';
import { parseInput, readBody } from '../shared/validation.js';
import { createOnce, type CreatedPost, type FixedCreate } from './idempotency.js';
import { FIRST_POST_VERSION, type NewPost, type Post } from './post.js';
import { countedPostWrite } from './post-write-limits.js';
import type { UseCaseDeps } from './use-case-deps.js';

/**
 * What `createPost` reads: the credentials (checked where the policy says so), the idempotency key
 * and its request when there is one, then the body (the policy's `newPostSchema`), and the client,
 * whose address the write budget counts.
 */
export type CreatePostRequest = Pick<UseCaseRequest, 'credentials' | 'body' | 'idempotency' | 'client'>;

/** What `createPost` touches. */
type CreatePostDeps = Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess' | 'safeWriteRules' | 'idempotencyKeys' | 'postWriteLimits'>;

/**
 * Stores a new post (docs/api.md, `POST /posts`) and answers it at its first version. The writer
 * is settled before the body is read, then the body is validated by the policy's rules for a new
 * post, and the policy names the author. The id and both timestamps are assigned here, never taken
 * from the input.
 *
 * A signed-in writer's token is checked again once the post is stored: the body may take its
 * time, and meanwhile the account may have been deleted or the session ended. Then the post is
 * taken back and the answer is the one the token gets now (`UserNoLongerExists`, `InvalidToken`),
 * so no post outlives its author's account: a deletion that starts after this check finds the post
 * and deletes it, and one that started before it fails the check.
 *
 * A valid post is one write of the client's write budget (`postWriteLimits`), counted before it is
 * stored and given back if it is not. With an idempotency key the create runs at most once per key,
 * and the same request again gets its answer (`createOnce`); every request with a key is one write,
 * counted before the key is reserved, since the key's record is itself stored: given back when
 * nothing is kept under the key (a refused token, a key in use, an unavailable store), spent when
 * a post or a refused body is, or when the kept answer is given again.
 */
export async function createPost(
  deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess' | 'safeWriteRules' | 'idempotencyKeys' | 'postWriteLimits'>,
  request: CreatePostRequest,
): Promise<CreatedPost> {
  const access = deps.postAccess;
  const known = access.writer(request.credentials ?? NO_CREDENTIALS);
  const signedIn = known === null ? await authenticate(deps, request) : null;
  const writer = signedIn ? callerOf(signedIn) : (known as Caller);
  const { idempotency } = request;
  if (idempotency !== undefined) {
    return countedPostWrite(
      deps.postWriteLimits,
      request.client,
      () => createOnce(deps, idempotency, writer, (fixed, store) => storeOnce(deps, request, writer, signedIn, fixed, store)),
      (error) => isDomainError(error, 'ValidationFailed'),
    );
  }
  const fields = await newPost(deps, request, writer, deps.clock.now());
  return countedPostWrite(deps.postWriteLimits, request.client, async () => {
    const post = await deps.posts.insert(fields);
    if (signedIn) await stillSignedIn(deps, signedIn.token, post);
    return { post, version: FIRST_POST_VERSION, replayed: false };
  });
}

/** The post the body describes, by `writer`, created at `now`: validated, its author named by the policy. */
async function newPost(deps: CreatePostDeps, request: CreatePostRequest, writer: Caller, now: number): Promise<NewPost> {
  const access = deps.postAccess;
  const { title, body, authorId, published } = parseInput(access.newPostSchema, await readBody(request.body));
  return { title, body, authorId: access.authorOf(writer, authorId), published, createdAt: now, updatedAt: now };
}

/**
 * The post under `fixed`'s id and time: stored, unless `store` is false or a run before this one
 * stored it already (then it is that post, the same body having made the same fields).
 */
async function storeOnce(
  deps: CreatePostDeps,
  request: CreatePostRequest,
  writer: Caller,
  signedIn: Authenticated | null,
  fixed: FixedCreate,
  store: boolean,
): Promise<Post> {
  const fields = await newPost(deps, request, writer, fixed.createdAt);
  const made: Post = { id: fixed.id, ...fields };
  if (!store) return made;
  const post = (await deps.posts.insertAs(fixed.id, fields)) ?? made;
  if (signedIn) await stillSignedIn(deps, signedIn.token, post);
  return post;
}

/** Checks the writer's token again, taking `post` back (and answering the refusal) if it no longer checks out. */
async function stillSignedIn(deps: CreatePostDeps, token: TokenClaims, post: Post): Promise<void> {
  try {
    await stillAuthenticated(deps, token);
  } catch (error) {
    await deps.posts.delete(post.id).catch(() => undefined);
    throw error;
  }
}
