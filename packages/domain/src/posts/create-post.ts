import { authenticate, stillAuthenticated, type AuthenticateDeps } from '../accounts/authenticate.js';
import { callerOf, type Caller } from '../accounts/caller.js';
import type { TokenClaims } from '../accounts/ports.js';
import { NO_CREDENTIALS, type Credentials } from '../accounts/credentials.js';
import type { Clock } from '../shared/clock.js';
import { parseInput, readInput } from '../shared/validation.js';
import type { Post } from './post.js';
import { openPostAccess, type PostAccessPolicy } from './post-access.js';
import type { PostRepository } from './ports.js';

export interface CreatePostDeps extends AuthenticateDeps {
  readonly posts: PostRepository;
  readonly clock: Clock;
  /** Who may create posts, and whose they are; the open contract when omitted. */
  readonly postAccess?: PostAccessPolicy;
}

/**
 * Stores a new post (docs/api.md, `POST /posts`). The writer is settled before the body is read
 * (`input` is the body, or a function that reads it), then the body is validated by the policy's
 * rules for a new post, and the policy names the author. The id and both timestamps are assigned
 * here, never taken from the input.
 *
 * A signed-in writer's token is checked again once the post is stored: the body may take its
 * time, and meanwhile the account may have been deleted or the session ended. Then the post is
 * taken back and the answer is the one the token gets now (`UserNoLongerExists`, `InvalidToken`),
 * so no post outlives its author's account: a deletion that starts after this check finds the post
 * and deletes it, and one that started before it fails the check.
 */
export async function createPost(deps: CreatePostDeps, input: unknown, credentials: Credentials = NO_CREDENTIALS): Promise<Post> {
  const access = deps.postAccess ?? openPostAccess;
  const known = access.writer(credentials);
  const signedIn = known === null ? await authenticate(deps, credentials) : null;
  const writer = signedIn ? callerOf(signedIn) : (known as Caller);
  const { title, body, authorId, published } = parseInput(access.newPostSchema, await readInput(input));
  const now = deps.clock.now();
  const post = await deps.posts.insert({ title, body, authorId: access.authorOf(writer, authorId), published, createdAt: now, updatedAt: now });
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
