// Which way this run serves: a server started by the test support takes FAST_PATH from the run
// (the `tests, fast path off` project sets it to off), so the suites beside this one check the
// serving layer both ways. Off, the globals are never Node's stand-ins; on, they are while the
// server is open; after close() they are Node's own again either way.
import { describe, expect, it } from 'vitest';
import { memoryStores } from '../support/stores.js';
import { startInkwell } from '../support/start-inkwell.js';

const nodeHeaders = globalThis.Headers;
const nodeResponse = globalThis.Response;

describe(`a server of this run (FAST_PATH=${process.env.FAST_PATH ?? 'on'})`, () => {
  it('serves with the fast path as the run says, and leaves Node’s own globals behind', async () => {
    const server = await startInkwell({ in: 'process', store: await memoryStores.open() });
    try {
      const fast = process.env.FAST_PATH !== 'off';
      expect(globalThis.Headers !== nodeHeaders).toBe(fast);
      expect(globalThis.Response !== nodeResponse).toBe(fast);
      const answer = await fetch(`${server.url}/health`);
      expect(answer.status).toBe(200);
      expect(answer).toBeInstanceOf(Response);
    } finally {
      await server.close();
    }
    expect(globalThis.Headers).toBe(nodeHeaders);
    expect(globalThis.Response).toBe(nodeResponse);
  });
});
