import { afterEach, describe, expect, it, vi } from 'vitest';
import { testHttpApp } from '../test-support/test-app.js';
import { READINESS_PING_TIMEOUT_MS } from './health.js';

/** A ping that answers only when the test says so. */
function heldPing() {
  const calls: ((up: boolean) => void)[] = [];
  return {
    ping: () => new Promise<boolean>((resolve) => calls.push(resolve)),
    calls,
  };
}

const answer = async (response: Response | Promise<Response>) => {
  const res = await response;
  return { status: res.status, body: (await res.json()) as unknown };
};

describe('GET /health (readiness)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers 200 ok while the store answers its ping', async () => {
    expect(await answer(testHttpApp().request('/health'))).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('answers 503 unavailable while the ping says no, or fails', async () => {
    const down = testHttpApp({ storeIsUp: async () => false });
    const failing = testHttpApp({ storeIsUp: () => Promise.reject(new Error('no database')) });
    for (const app of [down, failing]) expect(await answer(app.request('/health'))).toEqual({ status: 503, body: { status: 'unavailable' } });
  });

  it('answers 503 unavailable once the ping has taken its bound, whatever the database does', async () => {
    vi.useFakeTimers();
    const { ping } = heldPing();
    const response = testHttpApp({ storeIsUp: ping }).request('/health');
    await vi.advanceTimersByTimeAsync(READINESS_PING_TIMEOUT_MS);
    expect(await answer(response)).toEqual({ status: 503, body: { status: 'unavailable' } });
    expect(READINESS_PING_TIMEOUT_MS).toBeLessThan(1000);
  });

  it('runs one ping at a time: checks made while one is under way share it', async () => {
    const { ping, calls } = heldPing();
    const app = testHttpApp({ storeIsUp: ping });
    const checks = [app.request('/health'), app.request('/health'), app.request('/health')];
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    calls[0]?.(true);
    for (const check of checks) expect(await answer(check)).toEqual({ status: 200, body: { status: 'ok' } });
    // The next check pings again.
    const next = app.request('/health');
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    calls[1]?.(false);
    expect((await next).status).toBe(503);
  });

  it('answers 503 stopping while the process stops, without asking the store', async () => {
    const storeIsUp = vi.fn(async () => true);
    let stopping = false;
    const app = testHttpApp({ storeIsUp, stopping: () => stopping });
    expect((await app.request('/health')).status).toBe(200);
    stopping = true;
    expect(await answer(app.request('/health'))).toEqual({ status: 503, body: { status: 'stopping' } });
    expect(storeIsUp).toHaveBeenCalledTimes(1);
  });
});

describe('GET /health/live (liveness)', () => {
  it('answers 200 ok whatever the store does, and never asks it', async () => {
    const { ping, calls } = heldPing();
    const app = testHttpApp({ storeIsUp: ping, stopping: () => true });
    expect(await answer(app.request('/health/live'))).toEqual({ status: 200, body: { status: 'ok' } });
    expect(calls).toHaveLength(0);
  });
});
