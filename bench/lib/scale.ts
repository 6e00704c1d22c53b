import { createInMemoryPostRepository } from '@inkwell/domain';
import { median } from './stats.js';

/**
 * Microseconds per call for the first and the `page`th page of a list of `posts` posts on the
 * memory store, in this process: the published list (`listPublished`), or one author's posts,
 * every other one a draft (`listByAuthor`, what `GET /me/posts` reads).
 */
export async function repositoryPageCost(
  list: 'published' | 'author',
  posts: number,
  perPage: number,
  page: number,
): Promise<{ first: number; deep: number }> {
  const repository = createInMemoryPostRepository();
  const createdAt = Date.UTC(2025, 0, 1);
  for (let i = 0; i < posts; i++) {
    const published = list === 'published' || i % 2 === 0;
    await repository.insert({ title: `Post ${i}`, body: 'x'.repeat(300), authorId: 'author', published, createdAt: createdAt + i, updatedAt: createdAt + i });
  }
  const read = list === 'published' ? (skip: number) => repository.listPublished(skip, perPage) : (skip: number) => repository.listByAuthor('author', skip, perPage);

  const offset = (page - 1) * perPage;
  const time = async (skip: number) => {
    const samples: number[] = [];
    for (let sample = 0; sample < 7; sample++) {
      const calls = 20_000;
      const started = performance.now();
      for (let i = 0; i < calls; i++) await read(skip);
      samples.push(((performance.now() - started) * 1000) / calls);
    }
    return median(samples);
  };
  // Alternated, so warm-up and background noise fall on both.
  const first: number[] = [];
  const deep: number[] = [];
  for (let round = 0; round < 3; round++) {
    first.push(await time(0));
    deep.push(await time(offset));
  }
  return { first: median(first), deep: median(deep) };
}
