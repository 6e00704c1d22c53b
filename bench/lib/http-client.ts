import { Agent, request } from 'node:http';
import { connect } from 'node:net';

/** A parsed response. */
export interface Reply {
  readonly status: number;
  /** Header names and values in the order the server wrote them. */
  readonly rawHeaders: readonly string[];
  readonly text: string;
}

/** What to send. */
export interface Call {
  readonly method: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

const keepAlive = new Agent({ keepAlive: true, maxSockets: 64 });

/** One request over a shared keep-alive pool. */
export function send(baseUrl: string, call: Call, agent: Agent = keepAlive): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...call.headers };
    if (call.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = String(Buffer.byteLength(call.body));
    }
    const req = request(`${baseUrl}${call.path}`, { method: call.method, headers, agent }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(call.body);
  });
}

/** `send`, failing unless the status is `expected`; returns the parsed JSON body (undefined for none, as a 304 has). */
export async function sendExpecting<T>(baseUrl: string, call: Call, expected: number): Promise<T> {
  const reply = await send(baseUrl, call);
  if (reply.status !== expected)
    throw new Error(`${call.method} ${call.path}: expected ${expected}, got ${reply.status}: ${reply.text.slice(0, 300)}`);
  return (reply.text === '' ? undefined : JSON.parse(reply.text)) as T;
}

/** Runs `count` calls, `concurrency` at a time, over keep-alive connections. */
export async function sendMany(baseUrl: string, count: number, concurrency: number, make: (i: number) => Call, expected: number): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const i = next++;
      await sendExpecting(baseUrl, make(i), expected);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

/** The exact bytes of one response, on a connection of its own. */
export function rawExchange(baseUrl: string, call: Call): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  const lines = [`${call.method} ${call.path} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close'];
  for (const [name, value] of Object.entries(call.headers ?? {})) lines.push(`${name}: ${value}`);
  if (call.body !== undefined) {
    if (!Object.keys(call.headers ?? {}).some((name) => name.toLowerCase() === 'content-type')) lines.push('Content-Type: application/json');
    lines.push(`Content-Length: ${Buffer.byteLength(call.body)}`);
  }
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
    // Not end(): a server may drop a half-closed connection before an async handler answers.
    // `Connection: close` makes it close the connection once the response is written.
    socket.write(`${lines.join('\r\n')}\r\n\r\n${call.body ?? ''}`);
  });
}
