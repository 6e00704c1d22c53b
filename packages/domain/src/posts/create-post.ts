import type { AuthenticateDeps } from '../accounts/authenticate.js';
import { authenticateCaller } from '../accounts/caller.js';
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
 */
export async function createPost(deps: CreatePostDeps, input: unknown, credentials: Credentials = NO_CREDENTIALS): Promise<Post> {
  const access = deps.postAccess ?? openPostAccess;
  const writer = access.writer(credentials) ?? (await authenticateCaller(deps, credentials));
  const { title, body, authorId, published } = parseInput(access.newPostSchema, await readInput(input));
  const now = deps.clock.now();
  return deps.posts.insert({ title, body, authorId: access.authorOf(writer, authorId), published, createdAt: now, updatedAt: now });
}
