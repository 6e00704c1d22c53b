import { authenticate, stillAuthenticated } from '../accounts/authenticate.js';
import { callerOf, type Caller } from '../accounts/caller.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { TokenClaims } from '../accounts/ports.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import { parseInput, readBody } from '../shared/validation.js';
import type { Post } from './post.js';
import { countedPostWrite } from './post-write-limits.js';
import type { UseCaseDeps } from './use-case-deps.js';

/**
 * What `createPost` reads: the credentials (checked where the policy says so), then the body (the
 * policy's `newPostSchema`), and the client, whose address the write budget counts.
 */
export type CreatePostRequest = Pick<UseCaseRequest, 'credentials' | 'body' | 'client'>;

/** What `createPost` touches. */
type CreatePostDeps = Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess' | 'postWriteLimits'>;

/**
 * Stores a new post (docs/api.md, `POST /posts`). The writer is settled before the body is read,
 * then the body is validated by the policy's
 * rules for a new post, and the policy names the author. The id and both timestamps are assigned
 * here, never taken from the input.
 *
 * A signed-in writer's token is checked again once the post is stored: the body may take its
 * time, and meanwhile the account may have been deleted or the session ended. Then the post is
 * taken back and the answer is the one the token gets now (`UserNoLongerExists`, `InvalidToken`),
 * so no post outlives its author's account: a deletion that starts after this check finds the post
 * and deletes it, and one that started before it fails the check.
 *
 * A valid post is one write of the client's write budget (`postWriteLimits`), counted before it is
 * stored and given back if it is not.
 */
export async function createPost(
  deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess' | 'postWriteLimits'>,
  request: CreatePostRequest,
): Promise<Post> {
  const access = deps.postAccess;
  const known = access.writer(request.credentials ?? NO_CREDENTIALS);
  const signedIn = known === null ? await authenticate(deps, request) : null;
  const writer = signedIn ? callerOf(signedIn) : (known as Caller);
  const { title, body, authorId, published } = parseInput(access.newPostSchema, await readBody(request.body));
  return countedPostWrite(deps.postWriteLimits, request.client, async () => {
    const now = deps.clock.now();
    const post = await deps.posts.insert({ title, body, authorId: access.authorOf(writer, authorId), published, createdAt: now, updatedAt: now });
    if (signedIn) await stillSignedIn(deps, signedIn.token, post);
    return post;
  });
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
