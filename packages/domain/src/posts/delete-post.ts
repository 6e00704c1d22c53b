import { DomainError } from '../shared/errors.js';
import type { PostRepository } from './ports.js';

export interface DeletePostDeps {
  readonly posts: PostRepository;
}

/** Deletes a post (docs/api.md, `DELETE /posts/{id}`). */
export async function deletePost(deps: DeletePostDeps, id: string): Promise<void> {
  if (!(await deps.posts.delete(id))) throw new DomainError('PostNotFound');
}
