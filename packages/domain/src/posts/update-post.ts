import { authenticateCaller } from '../accounts/caller.js';
import { NO_CREDENTIALS } from '../accounts/credentials.js';
import type { UseCaseRequest } from '../accounts/use-case-request.js';
import { parseInput, readBody } from '../shared/validation.js';
import type { VersionedPost } from './post.js';
import { countedPostWrite } from './post-write-limits.js';
import { unwritten, writeCondition } from './safe-writes.js';
import { UpdatePostSchema } from './schemas.js';
import type { UseCaseDeps } from './use-case-deps.js';

/**
 * What `updatePost` reads: the credentials (checked where the policy says so), the post's id, the
 * versions the change is conditional on, then the body (`UpdatePostSchema`), and the client, whose
 * address the write budget counts.
 */
export type UpdatePostRequest = Pick<UseCaseRequest, 'credentials' | 'postId' | 'ifMatch' | 'body' | 'client'>;

/**
 * Partially updates a post (docs/api.md, `PATCH /posts/{id}`), answering it with its new version.
 * The writer, then the post (it must exist for them and be theirs to change), then the condition
 * on its version (`writeCondition`) come first; only then is the body read and validated. Only
 * title, body and published are applied; authorId is validated but never changes. `updatedAt`
 * never moves backwards, even if the clock does or two changes cross: the store keeps the later of
 * its own and the one given. `{}` still saves. A conditional change is applied only if the post is
 * still at one of its versions when it is written, in the same atomic step: of two changes made on
 * one version, one is applied and the other is `PreconditionFailed`. A valid change is one write
 * of the client's write budget (`postWriteLimits`), given back if it is not saved.
 */
export async function updatePost(
  deps: Pick<UseCaseDeps, 'users' | 'tokens' | 'clock' | 'posts' | 'postAccess' | 'safeWriteRules' | 'postWriteLimits'>,
  request: UpdatePostRequest,
): Promise<VersionedPost> {
  const { postAccess: access, posts } = deps;
  const writer = access.writer(request.credentials ?? NO_CREDENTIALS) ?? (await authenticateCaller(deps, request));
  const found = await posts.findById(request.postId);
  const existing = access.changeable(writer, found && found.post);
  const condition = writeCondition(deps.safeWriteRules, request.ifMatch, (found as VersionedPost).version);

  const { title, body, published } = parseInput(UpdatePostSchema, await readBody(request.body));
  return countedPostWrite(deps.postWriteLimits, request.client, async () => {
    const saved = await posts.update(
      request.postId,
      {
        ...(title !== undefined && { title }),
        ...(body !== undefined && { body }),
        ...(published !== undefined && { published }),
        updatedAt: Math.max(deps.clock.now(), existing.updatedAt),
      },
      condition,
    );
    if (!saved) throw await unwritten(posts, request.postId, condition); // deleted, or changed, between the look-up and the save
    return saved;
  });
}
