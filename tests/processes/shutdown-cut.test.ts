// Requests still running when a stop's bound on requests in flight runs out are cut, and the
// server says so: one warn line per request, with its request id, method and path, and not an
// info line that blames the client for going away. One waits for the store, one for the rest of
// its body.
import { memoryStore } from '@inkwell/app';
import { holdNextCall } from '@inkwell/domain/testing';
import { describe, expect, it } from 'vitest';
import { rawConnection } from '../support/raw-http.js';
import { startInkwell } from '../support/start-inkwell.js';

describe('a stop whose bound on requests in flight runs out', () => {
  it('logs each request it cuts in one warn line with its request id, and blames no client', async () => {
    const store = memoryStore();
    const server = await startInkwell({ in: 'process', store, env: { SHUTDOWN_DRAIN_SECONDS: '0' }, shutdownGraceMs: 300 });
    const held = holdNextCall(store.posts, 'findById');
    const read = server.send('GET', '/posts/held', undefined, { 'x-request-id': 'held-by-the-store' }).then(
      (response) => response.status,
      (error: unknown) => (error instanceof Error ? error.name : 'error'),
    );
    await held.reached;
    // Half a body, the rest never sent.
    const upload = await rawConnection(server.port);
    upload.write('POST /posts HTTP/1.1\r\nHost: inkwell\r\nContent-Type: application/json\r\nContent-Length: 100\r\nX-Request-Id: half-a-body\r\n\r\n{"title":');
    const answered = await server.send('GET', '/health/live', undefined, { 'x-request-id': 'answered-in-time' });
    expect(answered.status).toBe(200);

    await server.close();
    // The clients saw their connections cut, with no answer.
    expect(await read).toBe('TypeError');
    await upload.closed;
    expect(upload.received()).toBe('');
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 100));

    const records = server.log.records();
    const cut = records.filter((record) => String(record.msg).startsWith('request cut at shutdown'));
    expect(cut.map(({ level, requestId, method, path }) => ({ level, requestId, method, path }))).toEqual(
      expect.arrayContaining([
        { level: 40, requestId: 'held-by-the-store', method: 'GET', path: '/posts/held' },
        { level: 40, requestId: 'half-a-body', method: 'POST', path: '/posts' },
      ]),
    );
    expect(cut).toHaveLength(2);
    expect(cut[0]?.msg).toMatch(/^request cut at shutdown: (GET \/posts\/held|POST \/posts) was still running when the bound on requests in flight ran out$/);
    expect(records.filter((record) => record.msg === 'client went away')).toEqual([]);
  }, 20_000);
});
