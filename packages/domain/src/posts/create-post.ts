import { ANONYMOUS, isPending, type CallerSource } from '../accounts/caller.js';
import type { Clock } from '../shared/clock.js';
import { readInput } from '../shared/validation.js';
import type { Post } from './post.js';
import { openPostAccess, type PostAccessPolicy } from './post-access.js';
import type { PostRepository } from './ports.js';

export interface CreatePostDeps {
  readonly posts: PostRepository;
  readonly clock: Clock;
  /** Who may create posts, and whose they are; the open contract when omitted. */
  readonly postAccess?: PostAccessPolicy;
}

/**
 * Stores a new post (docs/api.md, `POST /posts`). The writer is settled before the body is read
 * (`input` is the body, or a function that reads it), then the body is validated and the policy
 * names the author. The id and both timestamps are assigned here, never taken from the input.
 */
export async function createPost(deps: CreatePostDeps, input: unknown, caller: CallerSource = ANONYMOUS): Promise<Post> {
  const access = deps.postAccess ?? openPostAccess;
  const asked = access.writer(caller);
  const writer = isPending(asked) ? await asked : asked;
  const { title, body, authorId, published } = access.newPostFields(writer, await readInput(input));
  const now = deps.clock.now();
  return deps.posts.insert({ title, body, authorId, published, createdAt: now, updatedAt: now });
}
