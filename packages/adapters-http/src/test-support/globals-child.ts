// Run in a fresh process by fast-globals.test.ts: serves a Hono app with serveNode (the fast path
// on), and reports, as one JSON line on stdout, what code outside the adapter sees of the
// globals `Headers`, `Request`, `Response` and `fetch` while it serves, compared with what Node's
// own classes (kept before serveNode) show for the same operations, and what the globals are
// after `close()`. With the argument `node-server-first`, @hono/node-server is loaded before
// serveNode, and the line says how serveNode failed. With `probes` (or `probes-off`, the fast path
// off), it runs globals-probes.ts before serveNode is called, while it serves and after close(),
// and reports the three, with, off the fast path, how often the globals were not Node's own while
// serveNode started.
import { Hono } from 'hono';
import { inspect } from 'node:util';
import { serveNode } from '../node/serve-node.js';
import { globalsProbes, outcome, rawHeaderEcho } from './globals-probes.js';

interface Globals {
  readonly Headers: typeof Headers;
  readonly Request: typeof Request;
  readonly Response: typeof Response;
  readonly fetch: typeof fetch;
}

const NAMES = ['Headers', 'Request', 'Response', 'fetch'] as const;

function current(): Globals {
  return { Headers: globalThis.Headers, Request: globalThis.Request, Response: globalThis.Response, fetch: globalThis.fetch };
}

function descriptors() {
  return Object.fromEntries(NAMES.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
}

const native = current();
const nativeDescriptors = descriptors();

const entries = (headers: Headers) => [...headers];

/** Whether `value` passes `instanceof` against each class of both sets. */
function kinds(value: unknown, classes: Globals, other: Globals) {
  return {
    headers: [value instanceof classes.Headers, value instanceof other.Headers],
    request: [value instanceof classes.Request, value instanceof other.Request],
    response: [value instanceof classes.Response, value instanceof other.Response],
  };
}

/** The WHATWG operations, every one built with `classes` and checked against both sets. */
function operations(classes: Globals, other: Globals, url: string): Record<string, () => unknown> {
  const { Headers, Request, Response, fetch } = classes;
  const values = ['plain', ' padded \t', 'control\u0001', 'delete\u007f', 'vertical\u000btab', 'latin ÿ', 'nul\u0000', 'cr\rlf', 'a\nb', 'wide\u0100', 123, { toString: () => 'object' }, undefined];
  const names = ['X-Name', 'x-name', 'bad name', '', 'naïve', 'set-cookie', 123];
  const ops: Record<string, () => unknown> = {
    'new Headers()': () => entries(new Headers()),
    'new Headers(record)': () => entries(new Headers({ B: '2', a: ' 1 ', 'Set-Cookie': 'c=1' })),
    'new Headers(pairs)': () => entries(new Headers([['a', '1'], ['A', '2'], ['set-cookie', 'x'], ['set-cookie', 'y']])),
    'new Headers(null)': () => entries(new Headers(null as unknown as undefined)),
    'new Headers(1)': () => entries(new Headers(1 as unknown as undefined)),
    'new Headers(short pair)': () => entries(new Headers([['a']] as unknown as [string, string][])),
    'new Headers(bad name)': () => entries(new Headers({ 'bad name': 'x' })),
    'new Headers(control value)': () => entries(new Headers({ a: '\u0001' })),
    'new Headers(its own kind)': () => entries(new Headers(new Headers({ a: '1', b: '\u007f' }))),
    'new Headers(the other kind)': () => entries(new Headers(new other.Headers({ a: '1' }))),
    'the other kind from it': () => entries(new other.Headers(new Headers({ a: '1', b: 'x\u0001' }))),
    'Headers() without new': () => (Headers as unknown as () => unknown)(),
    'get() without a name': () => (new Headers() as unknown as { get: () => unknown }).get(),
    'has() without a name': () => (new Headers() as unknown as { has: () => unknown }).has(),
    'set() with a name only': () => (new Headers() as unknown as { set: (n: string) => unknown }).set('a'),
    'append() with a name only': () => (new Headers() as unknown as { append: (n: string) => unknown }).append('a'),
    'forEach(not a function)': () => new Headers().forEach(1 as unknown as () => void),
    'forEach()': () => (new Headers() as unknown as { forEach: () => unknown }).forEach(),
    'forEach sees changes made during it': () => {
      const headers = new Headers({ a: '1', b: '2', c: '3' });
      const seen: unknown[] = [];
      headers.forEach(function (this: unknown, value, name, parent) {
        seen.push([name, value, parent === headers, this === globalThis]);
        if (name === 'a') {
          headers.delete('b');
          headers.append('d', '4');
        }
      });
      return seen;
    },
    'forEach with thisArg': () => {
      const self = {};
      let same = false;
      new Headers({ a: '1' }).forEach(function (this: unknown) {
        same = this === self;
      }, self);
      return same;
    },
    'iterators are live': () => {
      const headers = new Headers({ a: '1', c: '3' });
      const iterator = headers.entries();
      const first = iterator.next();
      headers.append('b', '2');
      return [first, iterator.next(), iterator.next(), iterator.next()];
    },
    'keys, values, spread': () => {
      const headers = new Headers([['b', '2'], ['a', '1'], ['a', '3'], ['set-cookie', 'x'], ['set-cookie', 'y']]);
      return [[...headers.keys()], [...headers.values()], [...headers], headers.get('set-cookie'), headers.getSetCookie(), headers.get('A')];
    },
    'iterator helpers': () => new Headers({ a: '1', b: '2' }).keys().map((key) => key.toUpperCase()).toArray(),
    'string tags': () => {
      const headers = new Headers();
      return [Object.prototype.toString.call(headers), Object.prototype.toString.call(headers.entries()), String(headers)];
    },
    'own keys and JSON': () => {
      const headers = new Headers({ a: '1' });
      return [Object.keys(headers), JSON.stringify(headers), Reflect.ownKeys(headers).length];
    },
    'inspect(headers)': () => inspect(new Headers({ b: '2', a: '1' })),
    'iterator is Symbol.iterator': () => {
      const headers = new Headers();
      return [headers[Symbol.iterator] === headers.entries, typeof headers.entries()[Symbol.iterator]];
    },
    'set then delete then has': () => {
      const headers = new Headers();
      headers.set('X-Name', 'one');
      headers.append('x-name', 'two');
      const joined = headers.get('X-NAME');
      headers.delete('X-Name');
      return [joined, headers.has('x-name'), entries(headers)];
    },
    'new Response()': () => {
      const response = new Response();
      return [response.status, response.statusText, response.ok, response.type, response.url, response.redirected, response.bodyUsed, response.body, entries(response.headers)];
    },
    'new Response(text)': async () => {
      const response = new Response('naïve ✓');
      const before = [response.bodyUsed, response.body instanceof ReadableStream, entries(response.headers)];
      const text = await response.text();
      return [before, text, response.bodyUsed, await outcome(() => response.text())];
    },
    'new Response(text, init)': async () => {
      const response = new Response('{"a":1}', { status: 201, statusText: 'Made', headers: { 'Content-Type': 'application/json', 'X-A': 'b' } });
      return [response.status, response.statusText, response.ok, entries(response.headers), await response.json()];
    },
    'new Response(text, {status: 204})': () => new Response('x', { status: 204 }).status,
    'new Response(null, {status: 204})': () => new Response(null, { status: 204 }).status,
    'new Response(x, {status: 99})': () => new Response('x', { status: 99 }).status,
    'new Response(x, {status: 600})': () => new Response('x', { status: 600 }).status,
    'new Response(x, {status: "201"})': () => new Response('x', { status: '201' as unknown as number }).status,
    'new Response(x, {status: 200.5})': () => new Response('x', { status: 200.5 }).status,
    'new Response(x, {statusText: "bad\\n"})': () => new Response('x', { statusText: 'bad\n' }).statusText,
    'new Response(x, {headers: bad})': () => new Response('x', { headers: { 'bad name': 'x' } }).status,
    'new Response(x, {headers: control})': () => entries(new Response('x', { headers: { a: '\u0001' } }).headers),
    'new Response(x, not an object)': () => new Response('x', 1 as unknown as ResponseInit).status,
    'new Response(bytes)': async () => {
      const bytes = new Uint8Array([1, 2, 250]);
      const response = new Response(bytes);
      bytes[0] = 9;
      return [entries(response.headers), [...new Uint8Array(await response.arrayBuffer())]];
    },
    'new Response(URLSearchParams)': async () => {
      const response = new Response(new URLSearchParams({ a: '1' }));
      return [entries(response.headers), [...(await response.formData()).entries()]];
    },
    'new Response(text, own headers) copies them': () => {
      const headers = new Headers({ a: '1' });
      const response = new Response('x', { headers });
      headers.set('a', '2');
      return [response.headers.get('a'), response.headers === response.headers, response.headers === headers];
    },
    'headers changed, then the body read': async () => {
      const response = new Response('x', { headers: { 'Content-Type': 'text/x-a' } });
      response.headers.set('Content-Type', 'text/x-b');
      const blob = await response.blob();
      response.headers.set('X-Later', 'yes');
      return [blob.type, await blob.text(), entries(response.headers)];
    },
    'clone()': async () => {
      const response = new Response('twice', { status: 202, headers: { 'X-A': '1' } });
      const copy = response.clone();
      copy.headers.set('X-A', '2');
      return [await response.text(), await copy.text(), copy.status, entries(response.headers), entries(copy.headers), kinds(copy, classes, other)];
    },
    'clone() after reading': async () => {
      const response = new Response('once');
      await response.text();
      return response.clone().status;
    },
    'new Response(body, response)': async () => {
      const first = new Response('one', { status: 203, statusText: 'Other', headers: { 'X-A': '1' } });
      const second = new Response('two', first);
      return [second.status, second.statusText, entries(second.headers), await second.text()];
    },
    'Response.json': async () => {
      const response = Response.json({ a: 1 }, { status: 201, headers: { 'X-A': '1' } });
      return [response.status, entries(response.headers), await response.text(), kinds(response, classes, other)];
    },
    'Response.json(undefined)': () => Response.json(undefined).status,
    'Response.redirect': () => {
      const response = Response.redirect('http://example.com/a b', 301);
      return [response.status, entries(response.headers), kinds(response, classes, other)];
    },
    'Response.redirect(bad status)': () => Response.redirect('http://example.com/', 200 as 301).status,
    'Response.error': () => {
      const response = Response.error();
      return [response.type, response.status, kinds(response, classes, other), (() => outcome(() => response.headers.set('a', 'b')))()];
    },
    'subclass': async () => {
      class Answer extends Response {}
      const answer = new Answer('sub', { status: 201 });
      return [answer instanceof Answer, kinds(answer, classes, other), answer.status, await answer.text(), Object.getPrototypeOf(Answer.prototype) === Response.prototype];
    },
    'Response() without new': () => (Response as unknown as () => unknown)(),
    'response string tag': () => [Object.prototype.toString.call(new Response()), String(new Response())],
    'inspect(response)': () => inspect(new Response('x', { status: 201, headers: { 'X-A': '1' } })),
    'instanceof, made here': () => [kinds(new Headers(), classes, other), kinds(new Response('x'), classes, other), kinds(new Response(null), classes, other), kinds(new Request('http://example.com/'), classes, other)],
    'instanceof, made by the other set': () => [kinds(new other.Headers(), classes, other), kinds(new other.Response('x'), classes, other), kinds(new other.Request('http://example.com/'), classes, other)],
    'fetch()': async () => {
      const response = await fetch(`${url}/hello`);
      return [response.status, kinds(response, classes, other), kinds(response.headers, classes, other), await response.text()];
    },
    'new Request(url, init)': async () => {
      const request = new Request('http://example.com/', { method: 'POST', body: 'sent', headers: new Headers({ 'X-A': '1' }) });
      return [request.method, entries(request.headers), await request.text(), kinds(request.headers, classes, other)];
    },
    'fetch with its own Headers': async () => {
      const response = await fetch(`${url}/echo`, { headers: new Headers({ 'X-Echo': 'back\u0001' }) });
      return [response.status, await response.text()];
    },
  };
  for (const name of names) {
    for (const value of values) ops[`set(${String(name)}, ${JSON.stringify(value)})`] = () => {
      const headers = new Headers();
      headers.set(name as string, value as string);
      headers.append(name as string, value as string);
      return [entries(headers), headers.get(name as string), headers.has(name as string)];
    };
  }
  return ops;
}

async function observeAll(classes: Globals, other: Globals, url: string): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  for (const [name, run] of Object.entries(operations(classes, other, url))) seen[name] = await outcome(run);
  return seen;
}

const app = new Hono()
  .get('/hello', (c) => c.text('hi'))
  .get('/echo', (c) => c.text(JSON.stringify(c.req.header('X-Echo'))));

/** Every probe's outcome, run one after another. */
async function probeAll(echo: string): Promise<Record<string, unknown>> {
  const seen: Record<string, unknown> = {};
  for (const [name, run] of Object.entries(globalsProbes(echo, native))) seen[name] = await outcome(run);
  return seen;
}

/**
 * `serveNode(app, { fastPath })`, and how many times, while it started, the globals were checked and
 * found not to be Node's own: between microtasks, and between turns of the event loop.
 */
async function startWatched(fastPath: boolean) {
  let settled = false;
  let standIns = 0;
  let checks = 0;
  const starting = serveNode(app, { host: '127.0.0.1', port: 0, fastPath }).finally(() => (settled = true));
  while (!settled) {
    for (let i = 0; i < 50 && !settled; i++) {
      checks++;
      if (globalThis.Headers !== native.Headers || globalThis.Response !== native.Response) standIns++;
      await Promise.resolve();
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { server: await starting, checks, standIns };
}

if (process.argv[2] === 'probes' || process.argv[2] === 'probes-off') {
  const echo = await rawHeaderEcho();
  const before = await probeAll(echo.url);
  const { server, checks, standIns } = await startWatched(process.argv[2] === 'probes');
  const during = await probeAll(echo.url);
  await server.close();
  const after = await probeAll(echo.url);
  await echo.close();
  process.stdout.write(`${JSON.stringify({ before, during, after, startup: { checks, standIns } })}\n`);
} else if (process.argv[2] === 'node-server-first') {
  await import('@hono/node-server');
  const failure = await outcome(() => serveNode(app, { host: '127.0.0.1', port: 0 }));
  process.stdout.write(`${JSON.stringify({ failure, globalsKept: NAMES.every((name) => current()[name] === native[name]) })}\n`);
} else {
  const first = await serveNode(app, { host: '127.0.0.1', port: 0 });
  const second = await serveNode(app, { host: '127.0.0.1', port: 0 });
  const serving = current();
  const identity = {
    replaced: NAMES.filter((name) => serving[name] !== native[name]),
    sameStatics: ['json', 'redirect', 'error'].every((name) => Reflect.get(serving.Response, name) === Reflect.get(native.Response, name)),
    samePrototypes: serving.Headers.prototype === native.Headers.prototype && serving.Response.prototype === native.Response.prototype,
    sameNames: [serving.Headers.name, serving.Response.name, serving.Headers.length, serving.Response.length],
  };
  const withStandIns = await observeAll(serving, native, first.url);
  const withNodes = await observeAll(native, serving, first.url);
  await first.close();
  const afterFirstClose = NAMES.filter((name) => current()[name] !== serving[name]);
  await second.close();
  const after = descriptors();
  const sameDescriptor = (a: PropertyDescriptor | undefined, b: PropertyDescriptor | undefined) =>
    a?.value === b?.value && a?.writable === b?.writable && a?.enumerable === b?.enumerable && a?.configurable === b?.configurable;
  const restored = NAMES.every((name) => current()[name] === native[name] && sameDescriptor(after[name], nativeDescriptors[name]));
  process.stdout.write(`${JSON.stringify({ identity, withStandIns, withNodes, afterFirstClose, restored })}\n`);
}
