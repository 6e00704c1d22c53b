import { authenticateCaller } from '../accounts/caller.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import { DomainError } from '../shared/errors.js';
import { parseInput, readBody } from '../shared/validation.js';
import type { Post } from './post.js';
import { countedPostWrite } from './post-write-limits.js';
import { UpdatePostSchema } from './schemas.js';
import type { UseCaseDeps } from './use-case-deps.js';

/**
 * What `updatePost` reads: the credentials (checked where the policy says so), the post's id, then
 * the body (`UpdatePostSchema`), and the client, whose address the write budget counts.
 */
export type UpdatePostRequest = Pick<UseCaseRequest, 'credentials' | 'postId' | 'body' | 'client'>;

/**
 * Partially updates a post (docs/api.md, `PATCH /posts/{id}`). The writer, then the post (it
 * must exist for them and be theirs to change) come first; only then is the body read and
 * validated. Only title, body and published are applied; authorId is validated but never
 * changes. `updatedAt` never moves backwards, even if the clock does. `{}` still saves. A valid
 * change is one write of the client's write budget (`postWriteLimits`), given back if it is not saved.
 */
export async function updatePost(
  deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess' | 'postWriteLimits'>,
  request: UpdatePostRequest,
): Promise<Post> {
  const { postAccess: access, posts } = deps;
  const writer = access.writer(request.credentials ?? NO_CREDENTIALS) ?? (await authenticateCaller(deps, request));
  const existing = access.changeable(writer, await posts.findById(request.postId));

  const { title, body, published } = parseInput(UpdatePostSchema, await readBody(request.body));
  return countedPostWrite(deps.postWriteLimits, request.client, async () => {
    const saved = await posts.update(request.postId, {
      ...(title !== undefined && { title }),
      ...(body !== undefined && { body }),
      ...(published !== undefined && { published }),
      updatedAt: Math.max(deps.clock.now(), existing.updatedAt),
    });
    if (!saved) throw new DomainError('PostNotFound'); // deleted between the look-up and the save
    return saved;
  });
}
