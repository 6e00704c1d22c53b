// Clients that keep sending requests to a real server for as long as a test runs, as the traffic
// of a deploy, a crash or an outage would, and a record of every request's outcome.
import { Agent, request } from 'node:http';

/** One request a client sends. */
export interface TrafficRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
}

/** What became of one request: its status, or the client's error code (a reset, a refusal, a timeout). */
export interface Outcome {
  readonly method: string;
  readonly path: string;
  /** When it was sent (performance.now()). */
  readonly sentAt: number;
  readonly status?: number;
  /** The answer's `Connection` header. */
  readonly connection?: string;
  readonly error?: string;
}

/** Clients sending requests until `stop()`. */
export interface Traffic {
  /** Every outcome so far, in the order the requests ended. */
  readonly outcomes: readonly Outcome[];
  /** Stops sending once each client's request under way has ended, and answers every outcome. */
  stop(): Promise<Outcome[]>;
}

/**
 * `clients` clients, each sending `next(i)` for its i-th request, one after the other. With
 * `keepAlive`, each keeps its own connection for as long as the server does (a new one when the
 * server closes it); otherwise every request opens a connection of its own, so a cluster hands
 * each to its next worker. A request that gets no answer within `timeoutMs` counts as `timeout`.
 */
export function startTraffic(
  url: string,
  { clients, keepAlive, next, timeoutMs = 15_000 }: { clients: number; keepAlive: boolean; next: (i: number) => TrafficRequest; timeoutMs?: number },
): Traffic {
  const outcomes: Outcome[] = [];
  let running = true;
  const agents = Array.from({ length: clients }, () => (keepAlive ? new Agent({ keepAlive: true, maxSockets: 1 }) : undefined));
  const loops = agents.map(async (agent) => {
    for (let i = 0; running; i++) {
      const outcome = await send(url, next(i), agent, timeoutMs);
      outcomes.push(outcome);
      // A refused or reset connection comes back at once: a client would not retry in a tight loop.
      if (outcome.error !== undefined) await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });
  return {
    outcomes,
    async stop() {
      running = false;
      await Promise.all(loops);
      for (const agent of agents) agent?.destroy();
      return outcomes;
    },
  };
}

/** Sends one request (on `agent`'s connection, or a new one of its own) and answers its outcome: its status, or the client's error code. */
export function send(url: string, { method, path, body }: TrafficRequest, agent: Agent | undefined, timeoutMs = 15_000): Promise<Outcome> {
  const sentAt = performance.now();
  const text = body === undefined ? undefined : JSON.stringify(body);
  const headers = text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) };
  return new Promise((resolve) => {
    const req = request(`${url}${path}`, { method, headers, agent: agent ?? false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ method, path, sentAt, status: res.statusCode ?? 0, connection: res.headers.connection }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ method, path, sentAt, error: error.code ?? error.message }));
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'timeout' })));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ method, path, sentAt, error: error.code ?? error.message }));
    req.end(text);
  });
}

/** How many outcomes of each kind: `GET 200`, `POST 503`, `GET ECONNRESET`… */
export function tally(outcomes: readonly Outcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { method, status, error } of outcomes) {
    const key = `${method} ${error ?? status}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/**
 * What a server under `readsAndWrites` traffic runs with: its clients, all on one address, write
 * thousands of posts, far past the write budget a real client has (which its own tests cover).
 */
export const TRAFFIC_ENV = { POST_WRITES_MAX_PER_ADDRESS: '0' } as const;

/** Alternate reads of `postId` and post creations, as a mixed load (see `TRAFFIC_ENV`). */
export function readsAndWrites(postId: string): (i: number) => TrafficRequest {
  return (i) =>
    i % 2 === 0
      ? { method: 'GET', path: `/posts/${postId}` }
      : { method: 'POST', path: '/posts', body: { title: 'Under load', body: 'kept', authorId: 'traffic', published: true } };
}
