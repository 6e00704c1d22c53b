// What other code in a process can observe of the global `Headers` and `Response`, as probes run
// before a server starts, while it serves and after it has closed (globals-child.ts): each probe
// builds its objects from the globals as they are when it runs, and answers plain data (or the
// error it met), so two runs compare with a deep equality. They follow a security review's 71:
// the constructor identity of every kind of object, structured cloning, `util.inspect`, the header
// names `fetch` and `new Request` send, and the behaviour other code relies on.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { format, inspect } from 'node:util';

/** A probe: what it answers, as plain data. */
export type Probe = () => unknown;

/** What a probe gave: its value, or its error's class, name and message. */
export async function outcome(run: Probe): Promise<unknown> {
  try {
    return { value: await run() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.constructor.name} ${error.name}: ${error.message}` : String(error) };
  }
}

/** A plain `node:http` server that answers every request with the header names and values it received, as sent (its `rawHeaders`). */
export async function rawHeaderEcho(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request: IncomingMessage, response) => {
    request.resume();
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(request.rawHeaders));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The header names and values `fetch` sent, as the echo received them, but the ones every fetch sends. */
async function sent(echo: string, init: RequestInit | Request): Promise<string[]> {
  const response = init instanceof Request ? await fetch(init) : await fetch(echo, init);
  const raw = (await response.json()) as string[];
  const pairs: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i] as string;
    if (!/^(host|connection|user-agent|accept-encoding|accept|accept-language|sec-fetch-mode)$/i.test(name)) pairs.push(`${name}: ${raw[i + 1] ?? ''}`);
  }
  return pairs;
}

/** Whether `value` passes `instanceof` against the global `Headers`, `Request` and `Response`. */
function kinds(value: unknown): [boolean, boolean, boolean] {
  return [value instanceof Headers, value instanceof Request, value instanceof Response];
}

/** Own property names of a function, as `Object.getOwnPropertyNames` lists them. */
function ownNames(value: unknown): string[] {
  return Object.getOwnPropertyNames(value);
}

/** What a `MessagePort` does with `value`: sends it (and what arrives), or throws. */
async function posted(value: unknown): Promise<unknown> {
  const { port1, port2 } = new MessageChannel();
  try {
    const arrived = new Promise((resolve) => port2.once('message', resolve));
    port1.postMessage(value);
    return JSON.stringify(await arrived);
  } finally {
    port1.close();
    port2.close();
  }
}

/**
 * The probes: the requests they send go to `echo` (`rawHeaderEcho`); `natives` are Node's own
 * classes, as found before any server started.
 */
export function globalsProbes(echo: string, natives: { readonly Headers: typeof Headers; readonly Response: typeof Response }): Record<string, Probe> {
  const light = () => new Headers({ 'X-Custom-Case': 'v', b: '2' });
  return {
    // Constructor identity, for every kind of object and for the prototypes.
    'new Response(text).constructor === Response': () => new Response('x').constructor === Response,
    'new Response(null).constructor === Response': () => new Response(null).constructor === Response,
    'new Response(text, init).constructor === Response': () => new Response('x', { status: 201, headers: { a: '1' } }).constructor === Response,
    'new Response(bytes).constructor === Response': () => new Response(new Uint8Array([1])).constructor === Response,
    'Response.prototype.constructor === Response': () => Response.prototype.constructor === Response,
    'new Headers().constructor === Headers': () => new Headers().constructor === Headers,
    'new Headers(record).constructor === Headers': () => light().constructor === Headers,
    'new Headers(pairs).constructor === Headers': () => new Headers([['a', '1']]).constructor === Headers,
    'Headers.prototype.constructor === Headers': () => Headers.prototype.constructor === Headers,
    'response.headers.constructor === Headers': () => new Response('x').headers.constructor === Headers,
    'fetch result .constructor === Response': async () => (await fetch(echo)).constructor === Response,
    'fetch result headers .constructor === Headers': async () => (await fetch(echo)).headers.constructor === Headers,
    'clone().constructor === Response': () => new Response('x').clone().constructor === Response,
    'Response.json().constructor === Response': () => Response.json({ a: 1 }).constructor === Response,
    'Response.error().constructor === Response': () => Response.error().constructor === Response,
    'Response.redirect().constructor === Response': () => Response.redirect('http://example.com/', 302).constructor === Response,
    'constructor.name': () => [new Response('x').constructor.name, new Headers().constructor.name],
    'new (r.constructor)(text)': async () => {
      const again = new (new Response('x').constructor as typeof Response)('y', { status: 202 });
      return [again.status, await again.text(), kinds(again), again.constructor === Response];
    },
    'new (h.constructor)(record)': () => {
      const again = new (light().constructor as typeof Headers)({ a: '1' });
      return [[...again], kinds(again)];
    },
    'subclass of Response': async () => {
      class Answer extends Response {}
      const answer = new Answer('sub', { status: 201 });
      return [answer.constructor === Answer, answer instanceof Response, answer.status, await answer.text()];
    },
    'subclass of Headers': () => {
      class Fields extends Headers {}
      const fields = new Fields({ a: '1' });
      return [fields.constructor === Fields, fields instanceof Headers, [...fields]];
    },
    'instanceof and isPrototypeOf': () => [
      kinds(new Response('x')),
      kinds(light()),
      Object.prototype.isPrototypeOf.call(Response.prototype, new Response('x')),
      Object.prototype.isPrototypeOf.call(Headers.prototype, light()),
    ],
    'Object.getPrototypeOf(x) === X.prototype': () => [Object.getPrototypeOf(new Response('x')) === Response.prototype, Object.getPrototypeOf(light()) === Headers.prototype],
    'the global is the class Node made': () => [Headers === natives.Headers, Response === natives.Response],
    'Node’s own objects against the captured class': () => [new natives.Response('x').constructor === natives.Response, new natives.Headers().constructor === natives.Headers],
    "Node's methods called on the objects": () => [
      (() => {
        try {
          return natives.Headers.prototype.get.call(light(), 'b');
        } catch (error) {
          return (error as Error).name;
        }
      })(),
      (() => {
        try {
          return natives.Response.prototype.clone.call(new Response('x')).status;
        } catch (error) {
          return (error as Error).name;
        }
      })(),
    ],
    'Function.prototype.toString of the classes': () => [Function.prototype.toString.call(Headers).slice(0, 20), Function.prototype.toString.call(Response).slice(0, 20)],
    'typeof, name and length of the classes': () => [typeof Headers, typeof Response, Headers.name, Response.name, Headers.length, Response.length],
    'the globals’ property descriptors': () => ['Headers', 'Response'].map((name) => {
      const { writable, enumerable, configurable } = Object.getOwnPropertyDescriptor(globalThis, name) ?? {};
      return [writable, enumerable, configurable];
    }),

    // Structured cloning: Node's objects cannot be cloned or posted.
    'structuredClone(new Headers())': () => structuredClone(new Headers()),
    'structuredClone(new Headers(record))': () => structuredClone(light()),
    'structuredClone(new Response(text))': () => structuredClone(new Response('x')),
    'structuredClone(new Response(null))': () => structuredClone(new Response(null, { status: 204 })),
    'structuredClone(response.headers)': () => structuredClone(new Response('x').headers),
    'structuredClone({ nested Headers })': () => structuredClone({ headers: new Headers() }),
    'structuredClone(headers.entries())': () => structuredClone(light().entries()),
    'postMessage(new Response(text))': () => posted(new Response('x')),
    'postMessage(new Headers())': () => posted(new Headers()),

    // util.inspect, at every depth, and format.
    'inspect(headers)': () => inspect(light()),
    'inspect(response)': () => inspect(new Response('x', { headers: { 'X-A': '1' } })),
    'inspect(response without a body)': () => inspect(new Response(null, { status: 204 })),
    'inspect(empty headers)': () => inspect(new Headers()),
    'inspect(headers nested three deep)': () => inspect({ a: { b: { c: light() } } }),
    'inspect(response nested two deep)': () => inspect({ a: { b: new Response('x') } }),
    'inspect(headers in arrays)': () => inspect([[[light()]]]),
    'inspect(headers, depth 0)': () => inspect(light(), { depth: 0 }),
    'inspect(response, depth 0)': () => inspect(new Response('x'), { depth: 0 }),
    'inspect(headers, depth null)': () => inspect(light(), { depth: null }),
    'inspect(headers, colors)': () => inspect(light(), { colors: true }),
    'inspect(headers, not compact)': () => inspect(light(), { compact: false }),
    'inspect(headers with repeated names)': () => {
      const headers = new Headers();
      headers.append('Set-Cookie', 'a=1');
      headers.append('set-cookie', 'b=2');
      headers.append('X-Many', '1');
      headers.append('x-many', '2');
      return inspect(headers);
    },
    'inspect(headers.entries())': () => inspect(light().entries()),
    "format('%o', headers)": () => format('%o', light()),
    "format('%s', headers)": () => format('%s', light()),
    'String and toStringTag': () => [String(light()), String(new Response('x')), Object.prototype.toString.call(light().entries())],

    // What fetch and new Request send: header names as spelled, values joined as Node joins them.
    'fetch with new Headers(record)': () => sent(echo, { headers: light() }),
    'fetch with headers set and appended': () => {
      const headers = new Headers();
      headers.set('X-Set-Case', 'v');
      headers.append('X-Appended-Case', 'w');
      headers.append('x-appended-case', 'x');
      headers.set('x-set-case', 'replaced');
      return sent(echo, { headers });
    },
    'fetch with cookies appended': () => {
      const headers = new Headers();
      headers.append('Cookie', 'a=1');
      headers.append('cookie', 'b=2');
      return sent(echo, { headers });
    },
    'fetch with a number set': () => {
      const headers = new Headers({ 'X-Before': '1' });
      headers.set('X-Count', 5 as unknown as string);
      headers.append('X-After', 'z');
      return sent(echo, { headers });
    },
    'fetch with a control character appended': () => {
      const headers = new Headers({ 'X-First': '1' });
      headers.append('X-Control', 'a\u0001b');
      return sent(echo, { headers });
    },
    'fetch with headers deleted': () => {
      const headers = new Headers({ 'X-Kept': '1', 'X-Gone': '2' });
      headers.delete('x-gone');
      return sent(echo, { headers });
    },
    'fetch with a copy of headers': () => sent(echo, { headers: new Headers(light()) }),
    "fetch with a response's headers": () => sent(echo, { headers: new Response('x', { headers: { 'X-From-Response': '1' } }).headers }),
    'new Request(url, { headers }) sent': () => sent(echo, new Request(echo, { headers: light() })),
    'new Request(url, { headers }).headers': () => {
      const request = new Request(echo, { headers: light() });
      return [[...request.headers], inspect(request.headers)];
    },
    'new Response(bytes, { headers }).headers': () => inspect(new Response(new Uint8Array([1]), { headers: light() }).headers),
    "Node's Headers from these": () => inspect(new natives.Headers(light())),

    // Behaviour other code relies on.
    'cookie values joined': () => {
      const headers = new Headers();
      headers.append('Cookie', 'a=1');
      headers.append('cookie', 'b=2');
      return [headers.get('cookie'), [...headers]];
    },
    'cookie values from pairs, in a response': () => {
      const response = new Response('x', { headers: [['cookie', 'x'], ['Cookie', 'y']] });
      return response.headers.get('cookie');
    },
    'methods’ own names and lengths': () => ['append', 'set', 'get', 'has', 'delete', 'getSetCookie', 'forEach', 'entries', 'keys', 'values'].map((name) => {
      const method = (light() as unknown as Record<string, unknown>)[name];
      return [name, ownNames(method), (method as (...args: unknown[]) => unknown).length];
    }),
    'iterator is entries': () => {
      const headers = light();
      return headers[Symbol.iterator] === headers.entries;
    },
    'own keys and JSON': () => [Reflect.ownKeys(light()), JSON.stringify(light()), Object.keys(new Response('x')), JSON.stringify(new Response('x'))],
    'headers kept by a response': () => {
      const response = new Response('x', { headers: light() });
      return [response.headers === response.headers, response.headers.get('x-custom-case'), [...response.headers]];
    },
    'body read twice': async () => {
      const response = new Response('once');
      const text = await response.text();
      return [text, response.bodyUsed, await outcome(() => response.text())];
    },
    'arrayBuffer of a UTF-8 text': async () => [...new Uint8Array(await new Response('é✓').arrayBuffer())],
    'Response.json headers': () => [...Response.json({ a: 1 }, { headers: { 'X-A': '1' } }).headers],
    'keys sorted': () => Array.from(new Headers({ b: '1', a: '2', 'C-c': '3' }).keys()),
  };
}
