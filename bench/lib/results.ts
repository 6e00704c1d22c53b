import type { ProbeResult } from './login-storm.js';
import type { Memory } from './processes.js';
import type { WrkResult } from './wrk.js';

/** One A/B round of one endpoint. */
export interface AbRound {
  readonly round: number;
  readonly inkwell: WrkResult;
  readonly baseline: WrkResult;
  /** inkwell req/s ÷ baseline req/s. */
  readonly ratio: number;
  /** Server CPU time per request, in µs, measured from /proc around each run. */
  readonly inkwellCpuUs: number;
  readonly baselineCpuUs: number;
  /**
   * baseline CPU per request ÷ inkwell CPU per request: what the ratio would be if both were
   * purely CPU-bound on an otherwise idle core. Much steadier than req/s on a shared machine.
   */
  readonly cpuRatio: number;
}

/** One endpoint's rounds against the baseline, with medians over the rounds. */
export interface AbEndpointResult {
  readonly name: string;
  readonly target: number;
  /** What the byte comparison of the two servers' answers found. */
  readonly sameBytes: string;
  /** Every request inkwell answered for this endpoint, warm-up included (for POST: posts created). */
  readonly inkwellRequests: number;
  readonly rounds: readonly AbRound[];
  readonly median: {
    readonly ratio: number;
    readonly cpuRatio: number;
    readonly inkwellCpuUs: number;
    readonly baselineCpuUs: number;
    readonly inkwellRps: number;
    readonly baselineRps: number;
    readonly inkwellP50Ms: number;
    readonly inkwellP99Ms: number;
    readonly baselineP50Ms: number;
    readonly baselineP99Ms: number;
  };
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
  readonly endpoints: readonly AbEndpointResult[];
  readonly loginStorm: LoginStormResult;
  readonly memory: {
    readonly afterReads: Memory;
    readonly afterLogins: Memory;
    readonly afterPosts: Memory & { readonly postsStored: number };
  };
  readonly scale: ScaleResult;
  /** Not targets: runs that show where a gap comes from. */
  readonly diagnostics: {
    /** GET /posts/:id against an inkwell started with LOG_LEVEL=warn (no access-log line). */
    readonly withoutAccessLog?: AbEndpointResult;
    /** The baseline's own work behind a bare Hono app on @hono/node-server: the framework's floor. */
    readonly bareHono?: readonly AbEndpointResult[];
  };
}
