// Real inkwell processes on one MongoDB database, as operators run them: several instances
// behind a load balancer, or one WEB_CONCURRENCY cluster. Suites about "one service on many
// processes" describe their scenarios once and run them on both shapes.
import type { MongoDb } from '@inkwell/adapters-mongo';
import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { TEST_JWT_SECRET } from './fixtures.js';
import { startInkwell, type ChildServer } from './start-inkwell.js';

/** One answer, read whole. */
export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Record<string, unknown>;
}

/** One request on a connection of its own, so a cluster hands each one to its next worker. */
export function call(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  // Framed by Content-Length: Node's client would send a DELETE's body without any framing.
  const framing = text === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) };
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method, agent: false, headers: { connection: 'close', ...framing, ...headers } });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : {} }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** The service under test: where the i-th request goes, and which processes served what. */
export interface Service {
  /** The base URL for the i-th request: alternating processes, or the one URL of a cluster. */
  urlFor(i: number): string;
  /** The processes that logged an answer to `method path`. */
  servedBy(method: string, path: string): Set<unknown>;
  /** The processes that logged a line with this message (`msg`). */
  loggedBy(message: string): Set<unknown>;
  /** How many distinct processes serve requests. */
  readonly processes: number;
  /** The database they share. */
  readonly db: MongoDb;
}

/** The `pid` fields of the lines that match (a cluster's workers write theirs on every line). */
function pidsOf(lines: Record<string, unknown>[], matches: (line: Record<string, unknown>) => boolean): Set<unknown> {
  return new Set(lines.filter(matches).map((line) => line.pid));
}

/** Whether a line is the access line of an answer to `method path`. */
const answered = (method: string, path: string) => (line: Record<string, unknown>) => line.msg === 'request' && line.method === method && line.path === path;

/** The settings every process of a service runs with, on top of the test settings; a function when they are known only once the suite starts. */
export type ServiceEnv = Record<string, string> | (() => Record<string, string>);

/**
 * One process of the service, serving: on the test database with the signing secret, one hashing
 * thread at bcrypt's lowest cost (production accepts only 12, and gets it), and `extra`. These
 * suites are about processes sharing a database, not about the cost of a hash.
 */
function startProcess(mongo: TestMongo, extra: Record<string, string>): Promise<ChildServer> {
  const cost: Record<string, string> = extra.NODE_ENV === 'production' ? {} : { BCRYPT_COST: '4' };
  return startInkwell({ in: 'child', store: mongo, env: { JWT_SECRET: TEST_JWT_SECRET, HASH_WORKERS: '1', ...cost, ...extra } });
}

/** The pids of the processes (each of its own) that logged a line that matches. */
function loggedIn(processes: ChildServer[], matches: (line: Record<string, unknown>) => boolean): Set<unknown> {
  return new Set(processes.filter((server) => server.log.records().some(matches)).map((server) => server.child.process.pid));
}

/** Two independent processes on one database; the i-th request goes to process i mod 2. */
async function twoProcesses(mongo: TestMongo, env: Record<string, string>) {
  const processes = await Promise.all([startProcess(mongo, env), startProcess(mongo, env)]);
  const urls = processes.map((server) => server.url);
  expect(new Set(urls).size).toBe(2);
  const service: Service = {
    urlFor: (i) => urls[i % 2] as string,
    // A process of its own logs no pid: its own lines name it.
    servedBy: (method, path) => loggedIn(processes, answered(method, path)),
    loggedBy: (message) => loggedIn(processes, (line) => line.msg === message),
    processes: 2,
    db: mongo.db,
  };
  return { service, stop: async () => void (await Promise.all(processes.map((server) => server.close()))) };
}

/** One WEB_CONCURRENCY=2 server; a new connection per request, which the primary hands to each worker in turn. */
async function clusterOfTwo(mongo: TestMongo, env: Record<string, string>) {
  // It serves once both workers listen, so the primary hands connections to each in turn.
  const cluster = await startProcess(mongo, { ...env, WEB_CONCURRENCY: '2' });
  const service: Service = {
    urlFor: () => cluster.url,
    servedBy: (method, path) => pidsOf(cluster.log.records(), answered(method, path)),
    loggedBy: (message) => pidsOf(cluster.log.records(), (line) => line.msg === message),
    processes: 2,
    db: mongo.db,
  };
  return { service, stop: () => cluster.close() };
}

/**
 * Runs `scenarios` against each shape of one service on its own test database: two independent
 * processes with requests alternating between them, and one WEB_CONCURRENCY=2 server with a new
 * connection per request. Every process runs with `env` on top of the test settings (read when
 * the block starts, after the file's own beforeAll hooks). Skipped, loudly, without a test MongoDB.
 */
export function describeOneService(name: string, env: ServiceEnv, scenarios: (service: () => Service) => void): void {
  const shapes = [
    { label: 'two independent processes on one database, requests alternating between them', start: twoProcesses },
    { label: 'one WEB_CONCURRENCY=2 server on one database, a new connection per request', start: clusterOfTwo },
  ];
  for (const { label, start } of shapes) {
    describe.skipIf(!mongoTest)(`${name}: ${label}`, () => {
      let mongo: TestMongo | undefined;
      let running: { service: Service; stop(): Promise<void> } | undefined;
      beforeAll(async () => {
        mongo = await withTestMongo();
        running = await start(mongo, typeof env === 'function' ? env() : env);
      }, 60_000);
      afterAll(async () => {
        await running?.stop();
        await mongo?.cleanup();
      });
      scenarios(() => {
        if (!running) throw new Error('describeOneService: no service outside a test');
        return running.service;
      });
    });
  }
}
