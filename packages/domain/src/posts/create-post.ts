import { authenticate, stillAuthenticated, type Authenticated } from '../accounts/authenticate.js';
import { callerOf, type Caller } from '../accounts/caller.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { TokenClaims } from '../accounts/ports.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
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
 * counted before the key is reserved, since the key's record is itself stored and outlives the
 * run whatever its answer. It is spent once the run holds the key's record or gives the kept answer
 * again, however it ends (a post or a refused body kept, an author the writer may not name, a
 * token refused on the second check, the store unreachable); given back only when the run never
 * held the record (the key in use by another request or another run, the store unreachable before
 * or while reserving).
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
    // `createOnce` calls back only once this run holds the key's record (made, or taken over) or
    // gives its kept answer again: from then on the record stays whatever the run's answer.
    let kept = false;
    return countedPostWrite(
      deps.postWriteLimits,
      request.client,
      () =>
        createOnce(deps, idempotency, writer, (fixed, store) => {
          kept = true;
          return storeOnce(deps, request, writer, signedIn, fixed, store);
        }),
      () => kept,
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
 * The post under `fixed`'s id and time: stored (kept by its key until `fixed.keyedUntil`), unless
 * `store` is false or another run stored it already (then it is that post, the same body having
 * made the same fields), even if it was deleted since (its tombstone refuses the insert).
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
  const post = (await deps.posts.insertAs(fixed.id, fields, fixed.keyedUntil)) ?? made;
  if (signedIn) await stillSignedIn(deps, signedIn.token, post);
  return post;
}

/** Checks the writer's token again, taking `post` back (and answering the refusal) if it no longer checks out. */
async function stillSignedIn(deps: CreatePostDeps, token: TokenClaims, post: Post): Promise<void> {
  try {
    await stillAuthenticated(deps, token);
  } catch (error) {
    await deps.posts.takeBack(post.id).catch(() => undefined);
    throw error;
  }
}
