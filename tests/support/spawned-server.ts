import { expect, vi } from 'vitest';
import { DEFAULT_SERVER_TIMEOUTS, type ServerTimeouts } from '@inkwell/adapters-http';
import type { LogCapture } from './logs.js';
import { spawnInkwell, type SpawnedInkwell } from './spawn-inkwell.js';

/** A real inkwell server process (or cluster), as the suites that drive one over HTTP see it. */
export interface SpawnedServer {
  readonly url: string;
  readonly port: number;
  readonly process: SpawnedInkwell;
  /** Its JSON log lines so far (each process's lines reach stdout in batches, within 100 ms). */
  readonly log: LogCapture;
  /** The production timeouts it runs with. */
  readonly timeouts: ServerTimeouts;
  /** `fetch` against the server with a JSON body (strings and bytes are sent as they are). */
  send(method: string, path: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts `main.ts` with `env` (on 127.0.0.1, a free port) and resolves once it serves: with
 * `WEB_CONCURRENCY=N`, once all N workers listen, so the primary hands connections to each.
 */
export async function startSpawnedServer(env: Record<string, string>): Promise<SpawnedServer> {
  const spawned = spawnInkwell(env);
  const url = await spawned.listening();
  const workers = Number(env.WEB_CONCURRENCY ?? 1);
  const listening = () => spawned.lines.filter((line) => line.includes('inkwell listening on')).length;
  await vi.waitFor(() => expect(listening()).toBe(workers), { timeout: 30_000, interval: 50 });
  const records = () =>
    spawned.lines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  return {
    url,
    port: Number(new URL(url).port),
    process: spawned,
    log: { lines: spawned.lines, records },
    timeouts: DEFAULT_SERVER_TIMEOUTS,
    send: (method, path, body, headers = {}) =>
      fetch(`${url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
      }),
    close: () => spawned.kill(),
  };
}
