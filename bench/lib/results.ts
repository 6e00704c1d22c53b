import type { ProbeResult } from './login-storm.js';
import type { Memory } from './processes.js';
import type { WrkResult } from './wrk.js';

/** The servers of the table, in its column order. */
export const SERVERS = ['baseline', 'hono', 'inkwell', 'honoDocumented', 'fastify', 'express'] as const;

/** One server of the table: inkwell, or one it is compared with. */
export type ServerKey = (typeof SERVERS)[number];

/** One server's load in one round: wrk's figures and the server's CPU time per request. */
export interface ServerRound extends WrkResult {
  /** Server CPU time per request (every thread), in µs, from /proc around the run. */
  readonly cpuUs: number;
}

/** inkwell against another server: inkwell's req/s ÷ theirs, and their CPU time per request ÷ inkwell's (above 1: inkwell is ahead). */
export interface Ratio {
  readonly rps: number;
  readonly cpu: number;
}

/** One endpoint, every server loaded in turn for each round, with medians over the rounds. */
export interface EndpointResult {
  readonly name: string;
  /** The size of inkwell's answer, which every compared server answered byte for byte. */
  readonly answerBytes: number;
  /** The servers loaded (in owner mode the compared ones only serve what they implement). */
  readonly servers: readonly ServerKey[];
  readonly rounds: ReadonlyArray<Partial<Record<ServerKey, ServerRound>>>;
  /** Every request each server answered for this endpoint, warm-up included (for POST: posts created). */
  readonly requests: Partial<Record<ServerKey, number>>;
  readonly median: Partial<Record<ServerKey, { readonly rps: number; readonly cpuUs: number; readonly p50Ms: number; readonly p99Ms: number }>>;
  /** inkwell against each other server loaded: the medians of the ratios of each round. */
  readonly ratios: Partial<Record<Exclude<ServerKey, 'inkwell'>, Ratio>>;
}

/** inkwell alone against the baseline on one endpoint, for a diagnostic. */
export interface DiagnosticResult {
  readonly name: string;
  readonly inkwellCpuUs: number;
  readonly baselineCpuUs: number;
  readonly inkwellRps: number;
  readonly baselineRps: number;
  readonly ratio: Ratio;
}

/** The login storm against the bare pool. */
export interface LoginStormResult {
  readonly hashThreads: number;
  readonly connections: number;
  readonly seconds: number;
  readonly bareComparesPerSecond: number;
  readonly loginsPerSecond: number;
  readonly non2xx: number;
  readonly ratio: number;
  readonly probePerSecond: number;
  readonly probeIdle: ProbeResult;
  readonly probeDuringStorm: ProbeResult;
}

/** Page 1 against page 5 000 over 100 000 published posts on the memory store. */
export interface ScaleResult {
  readonly posts: number;
  readonly seedSeconds: number;
  readonly http: {
    readonly page1: { readonly rps: number; readonly p50Ms: number; readonly p99Ms: number };
    readonly page5000: { readonly rps: number; readonly p50Ms: number; readonly p99Ms: number };
    /** page 5 000 req/s ÷ page 1 req/s (medians). */
    readonly ratio: number;
  };
  readonly repository: RepositoryPageCost;
  /** The same for one author's 100 000 posts, half of them drafts: what `GET /me/posts` reads. */
  readonly ownPostsRepository: RepositoryPageCost;
}

/** Microseconds per repository call for page 1 and page 5 000, and their ratio. */
export interface RepositoryPageCost {
  readonly page1MicrosPerCall: number;
  readonly page5000MicrosPerCall: number;
  readonly ratio: number;
}

/** Everything one `pnpm bench` run measured. */
export interface BenchResults {
  readonly environment: {
    readonly date: string;
    readonly commit: string;
    readonly node: string;
    readonly cpu: string;
    readonly cores: number;
    readonly wrk: string;
    readonly pinning: string;
    readonly rounds: number;
    readonly seconds: number;
    readonly warmupSeconds: number;
    readonly connections: number;
    readonly logLevel: string;
    /** POSTS_ACCESS of the inkwell measured. */
    readonly postsAccess: 'open' | 'owner';
    readonly seededPosts: number;
    /** /proc/loadavg when the run began and when it ended: other work on the machine skews req/s. */
    readonly loadAverage: { readonly start: string; readonly end: string };
  };
  readonly startup: { readonly runsMs: readonly number[]; readonly medianMs: number };
  readonly endpoints: readonly EndpointResult[];
  readonly loginStorm: LoginStormResult;
  readonly memory: {
    readonly afterReads: Memory;
    readonly afterLogins: Memory;
    readonly afterPosts: Memory & { readonly postsStored: number };
    /** The posts each server held at the end, the seeded ones included. */
    readonly postsHeld: Partial<Record<ServerKey, number>>;
  };
  readonly scale: ScaleResult;
  /** Not targets: runs that show where a gap comes from. */
  readonly diagnostics: {
    /** GET /posts/:id on an inkwell started with LOG_LEVEL=warn (no access-log line) against a baseline on its data. */
    readonly withoutAccessLog?: DiagnosticResult;
  };
}
