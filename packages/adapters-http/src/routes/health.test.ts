import { createInMemoryPostRepository, DomainError } from '@inkwell/domain';
import { describe, expect, it, vi } from 'vitest';
import { testHttpApp } from '../test-support/test-app.js';

const answer = async (response: Response | Promise<Response>) => {
  const res = await response;
  return { status: res.status, body: (await res.json()) as unknown };
};

describe('GET /health (readiness)', () => {
  it('answers 200 ok while the store can be reached, and 503 unavailable while it cannot, as last seen', async () => {
    let reachable = true;
    const app = testHttpApp({ storeReachable: () => reachable });
    expect(await answer(app.request('/health'))).toEqual({ status: 200, body: { status: 'ok' } });
    reachable = false;
    expect(await answer(app.request('/health'))).toEqual({ status: 503, body: { status: 'unavailable' } });
    reachable = true;
    expect((await app.request('/health')).status).toBe(200);
  });

  it('answers 503 stopping while the process stops, whatever the store', async () => {
    let stopping = false;
    const app = testHttpApp({ stopping: () => stopping });
    expect((await app.request('/health')).status).toBe(200);
    stopping = true;
    expect(await answer(app.request('/health'))).toEqual({ status: 503, body: { status: 'stopping' } });
  });
});

describe('GET /health/live (liveness)', () => {
  it('answers 200 ok whatever the store and while stopping', async () => {
    const app = testHttpApp({ storeReachable: () => false, stopping: () => true });
    expect(await answer(app.request('/health/live'))).toEqual({ status: 200, body: { status: 'ok' } });
  });
});

describe('an answer 503 because the store cannot be reached', () => {
  it('is told to storeUnreachable, once per answer; no other failure is', async () => {
    const storeUnreachable = vi.fn();
    let failure: Error = new DomainError('StoreUnavailable');
    const app = testHttpApp({
      storeUnreachable,
      posts: { ...createInMemoryPostRepository(), findById: () => Promise.reject(failure) },
    });
    expect(await answer(app.request('/posts/x'))).toEqual({ status: 503, body: { error: 'Service unavailable' } });
    expect(await answer(app.request('/posts/y'))).toEqual({ status: 503, body: { error: 'Service unavailable' } });
    expect(storeUnreachable).toHaveBeenCalledTimes(2);
    failure = new DomainError('ServerBusy');
    expect((await app.request('/posts/z')).status).toBe(503);
    failure = new Error('boom');
    expect((await app.request('/posts/z')).status).toBe(500);
    expect(storeUnreachable).toHaveBeenCalledTimes(2);
  });
});
