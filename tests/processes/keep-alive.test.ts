// KEEP_ALIVE_TIMEOUT_SECONDS: an idle connection stays open that long, whatever the header
// timeout (which counts from a request's first byte, not from the idle time before it), the
// answers say so in `Keep-Alive`, and then the server closes it. Load balancers reuse idle
// connections for up to their own idle timeout (60 s for the common ones): the default, 65 s,
// outlasts it, so the balancer, not the server, closes an idle connection.
import { memoryStore, readConfig } from '@inkwell/app';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRawResponses, rawConnection, sleep } from '../support/raw-http.js';
import { startInkwell, type InProcessServer } from '../support/start-inkwell.js';

describe('KEEP_ALIVE_TIMEOUT_SECONDS', () => {
  let server: InProcessServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('is 65 s unless set: longer than the common load balancers’ 60 s', () => {
    expect(readConfig({}).keepAliveTimeoutSeconds).toBe(65);
    expect(readConfig({ KEEP_ALIVE_TIMEOUT_SECONDS: '120' }).keepAliveTimeoutSeconds).toBe(120);
    expect(() => readConfig({ KEEP_ALIVE_TIMEOUT_SECONDS: '0' })).toThrow('KEEP_ALIVE_TIMEOUT_SECONDS must be at least 1');
  });

  it('keeps an idle connection that long, past the header timeout, says so, and closes it then', async () => {
    server = await startInkwell({
      in: 'process',
      store: memoryStore(),
      env: { KEEP_ALIVE_TIMEOUT_SECONDS: '2' },
      timeouts: { headersMs: 300, requestMs: 600, checkIntervalMs: 50 },
    });
    const connection = await rawConnection(server.port);
    const request = 'GET /health/live HTTP/1.1\r\nHost: inkwell\r\n\r\n';
    connection.write(request);
    const first = await connection.response();
    expect([first.status, first.headers['keep-alive']]).toEqual([200, 'timeout=2']);

    // Idle for three header timeouts: the connection is still there for the next request.
    await sleep(900);
    connection.write(request);
    await vi.waitFor(() => expect(parseRawResponses(connection.received()).map((answer) => answer.status)).toEqual([200, 200]));
    const answeredAt = performance.now();

    const closedAt = await connection.closed;
    expect(closedAt - answeredAt).toBeGreaterThanOrEqual(1900);
    // Node keeps the socket a second past the advertised timeout (its keepAliveTimeoutBuffer).
    expect(closedAt - answeredAt).toBeLessThan(2000 + 1000 + 1000);
  }, 15_000);
});
