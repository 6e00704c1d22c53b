// Start-up in a real process: the settings it refuses, with exit 1 and one line, and the listening line of owner mode.
import { describe, expect, it } from 'vitest';
import { startInkwell } from '../support/start-inkwell.js';

describe('WEB_CONCURRENCY=2 with DB_URL=memory:', () => {
  it('refuses to start: exit 1 with one line that says why', async () => {
    const inkwell = await startInkwell({ in: 'child', ready: 'spawned', store: 'memory', env: { WEB_CONCURRENCY: '2' } });
    expect(await inkwell.exited).toBe(1);
    expect(inkwell.lines).toHaveLength(1);
    expect(inkwell.lines[0]).toMatch(/^inkwell: refusing to start: WEB_CONCURRENCY=2 needs the MongoDB store/);
  }, 20_000);
});

describe('POSTS_ACCESS other than open or owner', () => {
  it('refuses to start: exit 1 with one line that names both values', async () => {
    const inkwell = await startInkwell({ in: 'child', ready: 'spawned', store: 'memory', env: { POSTS_ACCESS: 'authors' } });
    expect(await inkwell.exited).toBe(1);
    expect(inkwell.lines).toEqual(['inkwell: refusing to start: POSTS_ACCESS must be open or owner']);
  }, 20_000);
});

describe('POSTS_ACCESS=owner', () => {
  it('names the mode in the listening line, and serves GET /me/posts', async () => {
    const inkwell = await startInkwell({
      in: 'child',
      ready: 'spawned',
      store: 'memory',
      env: { PORT: '0', HOST: '127.0.0.1', POSTS_ACCESS: 'owner', LOG_LEVEL: 'info' },
    });
    try {
      const url = await inkwell.listening(20_000);
      expect(inkwell.lines.find((line) => line.includes('inkwell listening on'))).toContain('(store: memory, posts: owner)');
      const res = await fetch(`${url}/me/posts`);
      expect([res.status, await res.json()]).toEqual([401, { error: 'Missing authorization header' }]);
    } finally {
      await inkwell.kill();
    }
  }, 30_000);
});
