import type { AuthenticateDeps } from '../accounts/authenticate.js';
import { authenticateCaller } from '../accounts/caller.js';
import { NO_CREDENTIALS, type Credentials } from '../accounts/credentials.js';
import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/errors.js';
import { parseInput, readInput } from '../shared/validation.js';
import type { Post } from './post.js';
import { openPostAccess, type PostAccessPolicy } from './post-access.js';
import type { PostRepository } from './ports.js';
import { UpdatePostSchema } from './schemas.js';

export interface UpdatePostDeps extends AuthenticateDeps {
  readonly posts: PostRepository;
  readonly clock: Clock;
  /** Who may change which posts; the open contract when omitted. */
  readonly postAccess?: PostAccessPolicy;
}

/**
 * Partially updates a post (docs/api.md, `PATCH /posts/{id}`). The writer, then the post (it
 * must exist for them and be theirs to change) come first; only then is the input read and
 * validated: `input` is the body or a function that reads it, so a caller can defer parsing
 * until then. Only title, body and published are applied; authorId is validated but never
 * changes. `updatedAt` never moves backwards, even if the clock does. `{}` still saves.
 */
export async function updatePost(
  deps: UpdatePostDeps,
  id: string,
  input: unknown,
  credentials: Credentials = NO_CREDENTIALS,
): Promise<Post> {
  const access = deps.postAccess ?? openPostAccess;
  const writer = access.writer(credentials) ?? (await authenticateCaller(deps, credentials));
  const existing = access.changeable(writer, await deps.posts.findById(id));

  const { title, body, published } = parseInput(UpdatePostSchema, await readInput(input));
  const saved = await deps.posts.update(id, {
    ...(title !== undefined && { title }),
    ...(body !== undefined && { body }),
    ...(published !== undefined && { published }),
    updatedAt: Math.max(deps.clock.now(), existing.updatedAt),
  });
  if (!saved) throw new DomainError('PostNotFound'); // deleted between the look-up and the save
  return saved;
}
