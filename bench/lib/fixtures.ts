import { writeFileSync } from 'node:fs';
import type { BaselineFixture, BaselineFixtures } from '../baseline-server.js';
import { rawExchange, send, type Call } from './http-client.js';
import { BENCH_JWT_SECRET } from './processes.js';

/** One endpoint of the A/B table: the request and the work the baseline does for it. */
export interface Endpoint {
  readonly name: string;
  readonly call: Call;
  readonly work: BaselineFixture['work'];
  /** The wrk script and its arguments that send `call`. */
  readonly wrk: { readonly script: 'get' | 'post-json'; readonly args: readonly string[] };
}

// Node adds these per response (or per connection); the baseline's own node:http writes them the same way.
const PER_RESPONSE_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** Calls inkwell once for `endpoint` and keeps its answer as the baseline's fixture. */
export async function captureFixture(inkwellUrl: string, endpoint: Endpoint): Promise<BaselineFixture> {
  const reply = await send(inkwellUrl, endpoint.call);
  const headers: Array<[string, string]> = [];
  for (let i = 0; i < reply.rawHeaders.length; i += 2) {
    const name = reply.rawHeaders[i] as string;
    if (!PER_RESPONSE_HEADERS.has(name.toLowerCase())) headers.push([name, reply.rawHeaders[i + 1] as string]);
  }
  return {
    method: endpoint.call.method as 'GET' | 'POST',
    path: endpoint.call.path,
    status: reply.status,
    headers,
    body: JSON.parse(reply.text) as unknown,
    work: endpoint.work,
  };
}

/** Writes the file bench/baseline-server.ts answers from: `fixtures`, and the secret it verifies tokens with. */
export function writeBaselineFixtures(path: string, fixtures: readonly BaselineFixture[]): void {
  const file: BaselineFixtures = { jwtSecret: BENCH_JWT_SECRET, fixtures };
  writeFileSync(path, JSON.stringify(file, null, 2));
}

/**
 * A raw response in a form two servers can be compared by: the status line, the header lines
 * sorted (names lower-cased: HTTP does not order or case them, and Node places a
 * Content-Length it computed itself after the others), and the body. What legitimately differs
 * between two answers is blanked out: the Date, the request id (a fresh UUID per request), and
 * for a created post its id and timestamps.
 */
function comparable(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = raw.slice(0, split).split('\r\n');
  const headers = headerLines
    .map((line) => {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = name === 'date' || name === 'x-request-id' ? '-' : line.slice(colon + 1).trim();
      return `${name}: ${value}`;
    })
    .sort();
  const body = raw
    .slice(split + 4)
    .replace(/"id":"[0-9a-f]{24}"/g, '"id":"-"')
    .replace(/"(createdAt|updatedAt)":\d{13}/g, '"$1":0');
  return [statusLine, ...headers, '', body].join('\n');
}

/** Whether both servers answer `call` with the same bytes (after `comparable`); the first difference otherwise. */
export async function compareResponses(inkwellUrl: string, baselineUrl: string, call: Call): Promise<{ identical: boolean; detail: string }> {
  const [a, b] = await Promise.all([rawExchange(inkwellUrl, call), rawExchange(baselineUrl, call)]);
  const [left, right] = [comparable(a), comparable(b)];
  if (left === right) return { identical: true, detail: `${Buffer.byteLength(a)} bytes` };
  let i = 0;
  while (left[i] === right[i]) i++;
  return { identical: false, detail: `inkwell: ${JSON.stringify(left.slice(i, i + 80))} / baseline: ${JSON.stringify(right.slice(i, i + 80))}` };
}
