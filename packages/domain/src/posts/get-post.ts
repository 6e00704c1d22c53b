import { DomainError } from '../shared/errors.js';
import type { Post } from './post.js';
import type { PostRepository } from './ports.js';

export interface GetPostDeps {
  readonly posts: PostRepository;
}

/** One post by id, published or not (docs/api.md, `GET /posts/{id}`). */
export async function getPost(deps: GetPostDeps, id: string): Promise<Post> {
  const post = await deps.posts.findById(id);
  if (!post) throw new DomainError('PostNotFound');
  return post;
}
