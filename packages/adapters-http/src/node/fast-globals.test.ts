import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** A child process that loads TypeScript through tsx, serves and probes: seconds on a busy machine. */
const CHILD_TIMEOUT = { timeout: 30_000 };

const run = promisify(execFile);
const child = fileURLToPath(new URL('../test-support/globals-child.ts', import.meta.url));

/** What globals-child.ts reports, run in a fresh process (nothing loaded before it but Node). */
async function report(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(process.execPath, ['--conditions=source', '--import', 'tsx', child, ...args], { cwd: fileURLToPath(new URL('../..', import.meta.url)) });
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** The probes whose answers differ between `a` and `b`. */
function differing(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  return Object.keys(a).filter((name) => !isDeepStrictEqual(a[name], b[name]));
}

/**
 * What can still tell the stand-ins from Node's classes while a server is open, as
 * docs/architecture.md lists it: none of it changes what an object holds, what is sent, or what
 * the objects answer.
 */
const STILL_TELLS = [
  'Object.getPrototypeOf(x) === X.prototype',
  'the global is the class Node made',
  'Node’s own objects against the captured class',
  "Node's methods called on the objects",
  'Function.prototype.toString of the classes',
];

describe('the globals, probed before serveNode, while it serves and after close() (globals-probes.ts)', () => {
  it('differ on the fast path only in what docs/architecture.md lists, and not at all after close()', CHILD_TIMEOUT, async () => {
    const seen = (await report('probes')) as Record<string, Record<string, unknown>>;
    const before = seen.before as Record<string, unknown>;
    expect(Object.keys(before).length).toBeGreaterThanOrEqual(71);
    const during = differing(seen.during as Record<string, unknown>, before);
    console.info(`[globals] ${Object.keys(before).length} probes; differing while serving: ${during.length} (${during.join('; ')}); after close(): ${differing(seen.after as Record<string, unknown>, before).length}`);
    expect(during).toStrictEqual(STILL_TELLS);
    expect(differing(seen.after as Record<string, unknown>, before)).toStrictEqual([]);
  });

  it('do not differ at all with the fast path off, not even while serveNode starts', CHILD_TIMEOUT, async () => {
    const seen = (await report('probes-off')) as Record<string, Record<string, unknown>>;
    const before = seen.before as Record<string, unknown>;
    expect(differing(seen.during as Record<string, unknown>, before)).toStrictEqual([]);
    expect(differing(seen.after as Record<string, unknown>, before)).toStrictEqual([]);
    // Checked between microtasks and between turns of the event loop, from the call of serveNode to its listening.
    expect(seen.startup).toStrictEqual({ checks: expect.any(Number), standIns: 0 });
    expect((seen.startup as { checks: number }).checks).toBeGreaterThanOrEqual(50);
  });
});

describe('a process serving on the fast path, seen from outside the adapter', () => {
  it('sees Headers, Request, Response and fetch behave as Node’s own, and gets Node’s own back after close()', CHILD_TIMEOUT, async () => {
    const seen = await report();
    // While two servers serve: only Headers and Response are stand-ins, with Node's prototypes, statics and names.
    expect(seen.identity).toStrictEqual({ replaced: ['Headers', 'Response'], sameStatics: true, samePrototypes: true, sameNames: ['Headers', 'Response', 0, 0] });
    // Every operation, value and instanceof check gives what Node's classes give (values, errors and messages alike).
    const withNodes = seen.withNodes as Record<string, unknown>;
    expect(Object.keys(withNodes).length).toBeGreaterThan(100);
    expect(seen.withStandIns).toStrictEqual(withNodes);
    // What the standard accepts is accepted, and instanceof holds both ways, fetch() results included.
    expect(withNodes['set(X-Name, "control\\u0001")']).toStrictEqual({ value: [[['x-name', 'control\u0001, control\u0001']], 'control\u0001, control\u0001', true] });
    expect(withNodes['set(X-Name, "delete\u007f")']).toStrictEqual({ value: [[['x-name', 'delete\u007f, delete\u007f']], 'delete\u007f, delete\u007f', true] });
    const both = { headers: [false, false], request: [false, false], response: [true, true] };
    expect(withNodes['fetch()']).toStrictEqual({ value: [200, both, { ...both, headers: [true, true], response: [false, false] }, 'hi'] });
    expect((withNodes['Response.json'] as { value: unknown[] }).value[3]).toStrictEqual(both);
    expect((withNodes['Response.redirect'] as { value: unknown[] }).value[2]).toStrictEqual(both);
    expect((withNodes['Response.error'] as { value: unknown[] }).value[2]).toStrictEqual(both);
    // One server closed: the other still holds the stand-ins. Both closed: the very same globals, with the same descriptors.
    expect(seen.afterFirstClose).toStrictEqual([]);
    expect(seen.restored).toBe(true);
  });

  it('refuses to start when @hono/node-server was loaded first, and leaves the globals as they were', CHILD_TIMEOUT, async () => {
    const seen = await report('node-server-first');
    expect(seen.failure).toStrictEqual({ error: expect.stringContaining('the fast path is not active: @hono/node-server was loaded before serveNode') });
    expect(seen.globalsKept).toBe(true);
  });
});
