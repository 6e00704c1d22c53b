import type { PostPage } from '@inkwell/domain';
import type { Context } from 'hono';

/**
 * From how many characters of post text a page is written post by post rather than as one
 * string. Below it (every page of ordinary posts) the answer is `c.json`, on the serving layer's
 * fast path; at it, a page holds posts of hundreds of kilobytes, whose JSON built whole would cost
 * its size again per request (100 posts of 1 MiB: 100 MiB, twice over as a string and its bytes).
 */
export const STREAMED_FROM_CHARS = 256 * 1024;

/** The characters a post's text fields hold, within a few dozen of its JSON's length. */
function textLength(page: PostPage): number {
  let length = 0;
  for (const post of page.posts) length += post.title.length + post.body.length + post.authorId.length + post.id.length;
  return length;
}

/**
 * The 200 answer of a page of posts, the same bytes `c.json(page)` would send, with the headers set
 * on `c`: as one string for an ordinary page, and for a page of big posts written one post at a
 * time as the client reads it (a stream the serving layer pulls only as the socket drains), so
 * that no answer is ever held whole: a request holds one post's JSON, and what its socket buffers,
 * beyond the page itself.
 */
export function pageAnswer(c: Context, page: PostPage) {
  const whole = () => c.json(page, 200);
  if (textLength(page) < STREAMED_FROM_CHARS) return whole();
  const posts: (PostPage['posts'][number] | undefined)[] = [...page.posts];
  const encoder = new TextEncoder();
  let next = -1;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (next === -1) {
          controller.enqueue(encoder.encode('{"posts":['));
        } else if (next < posts.length) {
          const json = JSON.stringify(posts[next]);
          // Written: the page no longer holds it.
          posts[next] = undefined;
          controller.enqueue(encoder.encode(next === 0 ? json : `,${json}`));
        } else {
          controller.enqueue(encoder.encode(`],"pagination":${JSON.stringify(page.pagination)}}`));
          controller.close();
        }
        next++;
      },
      cancel() {
        posts.length = 0;
      },
    },
    // Nothing is prepared ahead of what the serving layer asks for.
    { highWaterMark: 0 },
  );
  // Typed as `c.json`'s answer, whose bytes it sends: the typed client reads either the same way.
  return c.body(body, 200, { 'Content-Type': 'application/json' }) as unknown as ReturnType<typeof whole>;
}
