import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/errors.js';
import { parseInput } from '../shared/validation.js';
import type { Post } from './post.js';
import type { PostRepository } from './ports.js';
import { UpdatePostSchema } from './schemas.js';

export interface UpdatePostDeps {
  readonly posts: PostRepository;
  readonly clock: Clock;
}

/**
 * Partially updates a post (docs/api.md, `PATCH /posts/{id}`): look-up first, then the input is
 * read and validated; `input` is the body or a function that reads it, so a caller can defer
 * parsing until then. Only title, body and published are applied; authorId is validated but
 * never changes. `updatedAt` never moves backwards, even if the clock does. `{}` still saves.
 */
export async function updatePost(deps: UpdatePostDeps, id: string, input: unknown): Promise<Post> {
  const existing = await deps.posts.findById(id);
  if (!existing) throw new DomainError('PostNotFound');

  const raw: unknown = typeof input === 'function' ? await input() : input;
  const { title, body, published } = parseInput(UpdatePostSchema, raw);
  const saved = await deps.posts.update(id, {
    ...(title !== undefined && { title }),
    ...(body !== undefined && { body }),
    ...(published !== undefined && { published }),
    updatedAt: Math.max(deps.clock.now(), existing.updatedAt),
  });
  if (!saved) throw new DomainError('PostNotFound'); // deleted between the look-up and the save
  return saved;
}
