import { createInMemoryPostRepository } from '@inkwell/domain';
import { median } from './stats.js';

/** Microseconds per `listPublished` call for the first and the `page`th page of `posts` published posts, in this process. */
export async function repositoryPageCost(posts: number, perPage: number, page: number): Promise<{ first: number; deep: number }> {
  const repository = createInMemoryPostRepository();
  const createdAt = Date.UTC(2025, 0, 1);
  for (let i = 0; i < posts; i++)
    await repository.insert({ title: `Post ${i}`, body: 'x'.repeat(300), authorId: 'author', published: true, createdAt: createdAt + i, updatedAt: createdAt + i });

  const offset = (page - 1) * perPage;
  const time = async (skip: number) => {
    const samples: number[] = [];
    for (let sample = 0; sample < 7; sample++) {
      const calls = 20_000;
      const started = performance.now();
      for (let i = 0; i < calls; i++) await repository.listPublished(skip, perPage);
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
