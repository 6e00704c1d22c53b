import type { Clock } from '../shared/clock.js';
import { parseInput } from '../shared/validation.js';
import type { Post } from './post.js';
import type { PostRepository } from './ports.js';
import { CreatePostSchema } from './schemas.js';

export interface CreatePostDeps {
  readonly posts: PostRepository;
  readonly clock: Clock;
}

/** Stores a new post; id and timestamps are assigned here, never taken from the input (docs/api.md, `POST /posts`). */
export async function createPost(deps: CreatePostDeps, input: unknown): Promise<Post> {
  const { title, body, authorId, published } = parseInput(CreatePostSchema, input);
  const now = deps.clock.now();
  return deps.posts.insert({ title, body, authorId, published, createdAt: now, updatedAt: now });
}
