import type { Context } from 'hono';

/** What a line says of a request: its id, method and path. */
export interface RequestSummary {
  readonly requestId: string;
  readonly method: string;
  readonly path: string;
}

/** Paths longer than this are cut in a line: a hostile 10 000-character path must not flood the logs. */
const MAX_LOGGED_PATH = 256;

/** `path` as a line shows it, cut at 256 characters. */
export function loggedPath(path: string): string {
  return path.length > MAX_LOGGED_PATH ? `${path.slice(0, MAX_LOGGED_PATH)}…` : path;
}

/**
 * The requests a server is running (the access log adds each as it starts and removes it once
 * answered), so that when a stop cuts those still running past its bound, each can be named in a
 * line of its own, and the failure the cut then causes in it is not taken for a client that went
 * away.
 */
export class RequestsInFlight {
  readonly #running = new Set<Context>();
  readonly #cut = new WeakSet<Context>();

  /** `c` is under way. */
  add(c: Context): void {
    this.#running.add(c);
  }

  /** `c` is answered (or failed). */
  delete(c: Context): void {
    this.#running.delete(c);
  }

  /** Marks every request still running as cut (its connection is being closed under it), and answers what a line says of each. */
  cut(): RequestSummary[] {
    return [...this.#running].map((c) => {
      this.#cut.add(c);
      return { requestId: String(c.get('requestId') ?? ''), method: c.req.method, path: loggedPath(c.req.path) };
    });
  }

  /** Whether `c` was cut at shutdown. */
  wasCut(c: Context): boolean {
    return this.#cut.has(c);
  }
}
