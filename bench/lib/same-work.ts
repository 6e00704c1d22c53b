import { writeFileSync } from 'node:fs';
import type { Dataset, Post } from '../servers/dataset.js';
import { rawExchange, send, sendExpecting, type Call } from './http-client.js';
import { BENCH_JWT_SECRET } from './processes.js';

/** One endpoint of the benchmark: the request wrk sends, and how. */
export interface Endpoint {
  readonly name: string;
  readonly call: Call;
  /** The wrk script and its arguments that send `call`. */
  readonly wrk: { readonly script: 'get' | 'post-json'; readonly args: readonly string[] };
}

/** An account inkwell signed up, as its signup answered. */
export interface SignedUp {
  readonly token: string;
  readonly user: { readonly id: string; readonly email: string; readonly name: string };
}

// Node adds these per answer or per connection, and these differ per request or per endpoint:
// none of them is one of the headers every answer carries.
const NOT_ANSWER_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'x-request-id', 'content-type', 'content-length', 'cache-control']);

/** A hash of the length bcrypt's are, for account records that look like inkwell's (never checked). */
const PLACEHOLDER_HASH = `$2b$12$${'x'.repeat(53)}`;

/** The claims of an inkwell token, read without verifying it (the bench made it). */
function claimsOf(token: string): { sub: string; sid: string; iat: number; exp: number } {
  return JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as { sub: string; sid: string; iat: number; exp: number };
}

/**
 * What inkwell at `url` holds, for the servers it is compared with to start from: every published
 * post (the benchmarks store no drafts before they capture), the accounts of `signedUp` with the
 * session each one's token names, and the headers inkwell puts on every answer.
 */
export async function captureDataset(url: string, signedUp: readonly SignedUp[]): Promise<Dataset> {
  const posts: Post[] = [];
  for (let page = 1; ; page++) {
    const list = await sendExpecting<{ posts: Post[] }>(url, { method: 'GET', path: `/posts?page=${page}&perPage=100` }, 200);
    posts.push(...list.posts);
    if (list.posts.length < 100) break;
  }
  const reply = await send(url, { method: 'GET', path: '/posts?perPage=1' });
  const answerHeaders: Array<[string, string]> = [];
  for (let i = 0; i < reply.rawHeaders.length; i += 2) {
    const name = reply.rawHeaders[i] as string;
    if (!NOT_ANSWER_HEADERS.has(name.toLowerCase())) answerHeaders.push([name, reply.rawHeaders[i + 1] as string]);
  }
  const accounts = signedUp.map(({ token, user }) => {
    const { sid, iat, exp } = claimsOf(token);
    return {
      // Signed up just now, so not verified: no answer the benchmark compares shows it anyway.
      user: { id: user.id, email: user.email, name: user.name, passwordHash: PLACEHOLDER_HASH, emailVerified: false, createdAt: iat * 1000, updatedAt: iat * 1000 },
      sessions: [{ id: sid, createdAt: iat * 1000, expiresAt: exp * 1000 }],
    };
  });
  return { jwtSecret: BENCH_JWT_SECRET, posts: posts.reverse(), accounts, answerHeaders };
}

/** Writes `dataset` where the servers read it from. */
export function writeDataset(path: string, dataset: Dataset): void {
  writeFileSync(path, JSON.stringify(dataset));
}

/** `application/json; charset=utf-8`, which Fastify and Express send for every JSON answer, means `application/json`. */
const JSON_WITH_CHARSET = /^application\/json; ?charset=utf-8$/i;

/**
 * A raw response in a form two servers can be compared by: the status line, the header lines
 * sorted (names lower-cased: HTTP does not order or case them), and the body. What legitimately
 * differs between two answers is blanked out: the Date, the request id (a fresh UUID per request),
 * a created post's id and timestamps, a JSON content type's `charset=utf-8` (JSON is UTF-8
 * whatever it says, RFC 8259 §8.1), and the spaces after a Content-Security-Policy's semicolons
 * (which its grammar allows; helmet writes none).
 */
function comparable(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = raw.slice(0, split).split('\r\n');
  const headers = headerLines
    .map((line) => {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'date' || name === 'x-request-id') return `${name}: -`;
      if (name === 'content-type' && JSON_WITH_CHARSET.test(value)) return `${name}: application/json`;
      if (name === 'content-security-policy') return `${name}: ${value.replace(/;\s*/g, '; ')}`;
      return `${name}: ${value}`;
    })
    .sort();
  const body = raw
    .slice(split + 4)
    .replace(/"id":"[0-9a-f]{24}"/g, '"id":"-"')
    .replace(/"(createdAt|updatedAt)":\d{13}/g, '"$1":0');
  return [statusLine, ...headers, '', body].join('\n');
}

/** The first place two texts differ, shown with what follows it in each. */
function firstDifference(left: string, right: string, names: readonly [string, string]): string {
  let i = 0;
  while (left[i] === right[i]) i++;
  const from = Math.max(0, left.lastIndexOf('\n', i - 1) + 1);
  return `${names[0]}: ${JSON.stringify(left.slice(from, i + 80))} / ${names[1]}: ${JSON.stringify(right.slice(from, i + 80))}`;
}

/**
 * Whether `other` answers `call` with the bytes inkwell answers it (after `comparable`): the
 * status line, every header, the body. Resolves with the size of inkwell's answer; rejects with the
 * first difference.
 */
export async function expectSameAnswer(inkwellUrl: string, otherUrl: string, otherName: string, call: Call): Promise<number> {
  const [a, b] = await Promise.all([rawExchange(inkwellUrl, call), rawExchange(otherUrl, call)]);
  const [left, right] = [comparable(a), comparable(b)];
  if (left !== right) throw new Error(`${call.method} ${call.path}: ${otherName} does not answer as inkwell does: ${firstDifference(left, right, ['inkwell', otherName])}`);
  return Buffer.byteLength(a);
}

/**
 * A request on which the API's rules decide (mostly a refusal), for checking that a server
 * applies the rules and does not only answer the benchmarked request.
 */
export interface RuleCheck {
  readonly what: string;
  readonly call: Call;
}

/** The rule checks of a benchmarked endpoint. */
export function ruleChecksOf(endpoint: Endpoint): RuleCheck[] {
  const { method, path } = endpoint.call;
  const json = (body: string): Call => ({ method: 'POST', path: '/posts', headers: { 'Content-Type': 'application/json' }, body });
  if (method === 'POST')
    return [
      { what: 'another content type', call: { method: 'POST', path: '/posts', headers: { 'Content-Type': 'text/plain' }, body: 'x' } },
      { what: 'malformed JSON', call: json('{"title":') },
      { what: 'JSON that is not an object', call: json('[1]') },
      { what: 'every field wrong', call: json('{"title":"","body":"","published":"yes"}') },
    ];
  if (path === '/me')
    return [
      { what: 'no Authorization', call: { method: 'GET', path: '/me' } },
      { what: 'another scheme', call: { method: 'GET', path: '/me', headers: { Authorization: 'Basic YTpi' } } },
      { what: 'a bad token', call: { method: 'GET', path: '/me', headers: { Authorization: 'Bearer not.a.token' } } },
    ];
  if (path.startsWith('/posts?'))
    return [
      { what: 'page 0', call: { method: 'GET', path: '/posts?page=0' } },
      { what: 'words for numbers', call: { method: 'GET', path: '/posts?page=abc&perPage=0' } },
      { what: 'perPage over 100', call: { method: 'GET', path: '/posts?perPage=101' } },
      { what: 'past the last page', call: { method: 'GET', path: '/posts?page=100000&perPage=20' } },
    ];
  return [{ what: 'an unknown id', call: { method: 'GET', path: '/posts/no-such-post' } }];
}

/**
 * The status and body of an answer, with a validation failure's issues reduced to their paths:
 * each validator words its messages its own way, the API fixes the paths.
 */
function statusAndBody(raw: string): string {
  const split = raw.indexOf('\r\n\r\n');
  const statusLine = raw.slice(0, raw.indexOf('\r\n'));
  const body = raw.slice(split + 4);
  const parsed = JSON.parse(body) as { issues?: Array<{ path: string }> };
  if (parsed.issues) parsed.issues = parsed.issues.map(({ path }) => ({ path })).sort((a, b) => a.path.localeCompare(b.path));
  return `${statusLine}\n${JSON.stringify(parsed)}`;
}

/** Whether `other` answers `check` with inkwell's status and body (issue paths, not messages); rejects with both answers. */
export async function expectSameRuling(inkwellUrl: string, otherUrl: string, otherName: string, check: RuleCheck): Promise<void> {
  const [a, b] = await Promise.all([rawExchange(inkwellUrl, check.call), rawExchange(otherUrl, check.call)]);
  const [left, right] = [statusAndBody(a), statusAndBody(b)];
  if (left !== right) throw new Error(`${check.call.method} ${check.call.path} (${check.what}): ${otherName} does not rule as inkwell does: inkwell ${JSON.stringify(left)} / ${otherName} ${JSON.stringify(right)}`);
}

/**
 * Every server of `others` answers each of `endpoints` with the bytes inkwell answers it (the
 * benchmarked request), and decides each of the endpoint's rule checks as inkwell does. Rejects
 * with the first difference, saying what differs; resolves with each endpoint's answer size.
 */
export async function checkSameAnswers(
  inkwellUrl: string,
  others: ReadonlyArray<{ readonly name: string; readonly url: string }>,
  endpoints: readonly Endpoint[],
): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const endpoint of endpoints)
    for (const other of others) {
      sizes.set(endpoint.name, await expectSameAnswer(inkwellUrl, other.url, other.name, endpoint.call));
      for (const check of ruleChecksOf(endpoint)) await expectSameRuling(inkwellUrl, other.url, other.name, check);
    }
  return sizes;
}
