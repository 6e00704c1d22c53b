import { POST_ACCESS_MODES, type PostAccessMode } from '@inkwell/domain';
import { availableParallelism } from 'node:os';
import * as v from 'valibot';

/** The JWT secret used when `JWT_SECRET` is unset outside production. Public by design: never use it for real. */
export const DEVELOPMENT_JWT_SECRET = 'inkwell-development-secret-do-not-use-in-production';
const MIN_PRODUCTION_SECRET_BYTES = 32;

/** The `DB_URL` that selects the in-memory store instead of MongoDB. */
export const MEMORY_DB_URL = 'memory:';

/** Everything inkwell reads from its environment, validated once at start. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dbUrl: string;
  readonly dbDatabase: string;
  readonly jwtSecret: string;
  readonly nodeEnv: string;
  readonly logLevel: LogLevel;
  /** Origins allowed by CORS; empty turns CORS off. */
  readonly corsOrigins: readonly string[];
  /** Abuse limits; a `max` of 0 turns that limit off. */
  readonly limits: {
    readonly loginFailuresPerEmail: { readonly max: number; readonly windowSeconds: number };
    readonly loginFailuresPerAddress: { readonly max: number; readonly windowSeconds: number };
    readonly signupsPerAddress: { readonly max: number; readonly windowSeconds: number };
  };
  /** Live sessions per account, and how many days a session may live however often it is refreshed. */
  readonly sessions: { readonly maxPerUser: number; readonly maxAgeDays: number };
  /** Take the client address from `X-Forwarded-For` (only behind a proxy you control). */
  readonly trustProxy: boolean;
  /** Serve `/openapi.json` and `/docs`. */
  readonly apiDocs: boolean;
  /** Who may read and write which posts: `open` (anyone, as the contract says) or `owner`. */
  readonly postsAccess: PostAccessMode;
  /** Worker processes sharing the port (MongoDB store only). */
  readonly webConcurrency: number;
  /** Threads in the password-hashing pool. */
  readonly hashWorkers: number;
  /** Hashing jobs that may wait for a thread before signup and login answer 503. */
  readonly hashQueueMax: number;
  /** Connections one process holds open at once, and how many of them may be in their lingering close. */
  readonly connections: { readonly open: number; readonly lingering: number };
  /** How long a stopping process keeps serving (answering with `Connection: close`, readiness 503) before it stops accepting. */
  readonly shutdownDrainSeconds: number;
  /** Problems worth a loud line at start that do not stop it (the development secret in use). */
  readonly warnings: readonly string[];
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Why the configuration was refused; `message` is the one line main prints. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A whole number from `min` up, with a default, as an environment variable. */
function wholeNumber(name: string, fallback: number, min = 0) {
  return v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,9}$/, `${name} must be a whole number`),
      v.transform(Number),
      v.minValue(min, `${name} must be at least ${min}`),
    ),
    String(fallback),
  );
}

/** `on`/`off` style switches. */
function onOff(name: string, fallback: 'on' | 'off') {
  return v.optional(
    v.pipe(
      v.string(),
      v.transform((value) => value.toLowerCase()),
      v.picklist(['on', 'off', 'true', 'false', '1', '0'], `${name} must be on or off`),
      v.transform((value) => value === 'on' || value === 'true' || value === '1'),
    ),
    fallback,
  );
}

const EnvSchema = v.object({
  PORT: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,5}$/, 'PORT must be a whole number from 0 to 65535'),
      v.transform(Number),
      v.maxValue(65_535, 'PORT must be a whole number from 0 to 65535'),
    ),
    '3000',
  ),
  HOST: v.optional(v.pipe(v.string(), v.nonEmpty('HOST must not be empty')), '0.0.0.0'),
  DB_URL: v.optional(
    v.pipe(
      v.string(),
      v.check(
        (url) => url === MEMORY_DB_URL || /^mongodb(\+srv)?:\/\/./.test(url),
        `DB_URL must be a mongodb:// or mongodb+srv:// URL, or "${MEMORY_DB_URL}" for the in-memory store`,
      ),
    ),
    'mongodb://127.0.0.1:27017',
  ),
  DB_DATABASE: v.optional(
    v.pipe(v.string(), v.regex(/^[^/\\. "$*<>:|?]{1,63}$/, 'DB_DATABASE must be a valid MongoDB database name')),
    'inkwell',
  ),
  JWT_SECRET: v.optional(v.string()),
  NODE_ENV: v.optional(v.string(), 'development'),
  LOG_LEVEL: v.optional(v.picklist(LOG_LEVELS, `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`), 'info'),
  CORS_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.transform((list) => list.split(',').map((origin) => origin.trim()).filter(Boolean)),
      v.check(
        (origins) => origins.every((origin) => /^https?:\/\/[^/\s]+$/.test(origin) || origin === '*'),
        'CORS_ORIGINS must be a comma-separated list of origins like https://app.example.com',
      ),
    ),
    '',
  ),
  LOGIN_MAX_FAILURES_PER_EMAIL: wholeNumber('LOGIN_MAX_FAILURES_PER_EMAIL', 10),
  LOGIN_MAX_FAILURES_PER_ADDRESS: wholeNumber('LOGIN_MAX_FAILURES_PER_ADDRESS', 100),
  LOGIN_FAILURE_WINDOW_SECONDS: wholeNumber('LOGIN_FAILURE_WINDOW_SECONDS', 15 * 60, 1),
  SIGNUP_MAX_PER_ADDRESS: wholeNumber('SIGNUP_MAX_PER_ADDRESS', 100),
  SIGNUP_WINDOW_SECONDS: wholeNumber('SIGNUP_WINDOW_SECONDS', 60 * 60, 1),
  SESSIONS_MAX_PER_USER: wholeNumber('SESSIONS_MAX_PER_USER', 20, 1),
  SESSION_MAX_AGE_DAYS: wholeNumber('SESSION_MAX_AGE_DAYS', 30, 1),
  TRUST_PROXY: onOff('TRUST_PROXY', 'off'),
  API_DOCS: onOff('API_DOCS', 'on'),
  POSTS_ACCESS: v.optional(v.picklist(POST_ACCESS_MODES, `POSTS_ACCESS must be ${POST_ACCESS_MODES.join(' or ')}`), 'open'),
  WEB_CONCURRENCY: wholeNumber('WEB_CONCURRENCY', 1, 1),
  HASH_WORKERS: wholeNumber('HASH_WORKERS', availableParallelism(), 1),
  HASH_QUEUE_MAX: wholeNumber('HASH_QUEUE_MAX', 32),
  CONNECTIONS_MAX: wholeNumber('CONNECTIONS_MAX', 1024, 1),
  LINGERING_CONNECTIONS_MAX: wholeNumber('LINGERING_CONNECTIONS_MAX', 128),
  SHUTDOWN_DRAIN_SECONDS: wholeNumber('SHUTDOWN_DRAIN_SECONDS', 5),
});

/** Every environment variable the configuration reads; docs/configuration.md has a row for each. */
export const SETTING_NAMES: readonly string[] = Object.keys(EnvSchema.entries);

/**
 * Reads and validates the configuration. Empty variables count as unset. Throws a
 * `ConfigError` naming the first problem; in production also when the JWT secret is
 * missing, is the development secret, or is shorter than 32 bytes (docs/api.md).
 */
export function readConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const result = v.safeParse(EnvSchema, present);
  if (!result.success) throw new ConfigError(result.issues[0].message);
  const { PORT, HOST, DB_URL, DB_DATABASE, JWT_SECRET, NODE_ENV, LOG_LEVEL, ...rest } = result.output;

  const warnings: string[] = [];
  if (NODE_ENV === 'production') {
    if (JWT_SECRET === undefined) throw new ConfigError('JWT_SECRET must be set when NODE_ENV=production');
    if (JWT_SECRET === DEVELOPMENT_JWT_SECRET)
      throw new ConfigError('JWT_SECRET must not be the development secret when NODE_ENV=production');
    if (Buffer.byteLength(JWT_SECRET, 'utf8') < MIN_PRODUCTION_SECRET_BYTES)
      throw new ConfigError(
        `JWT_SECRET must be at least ${MIN_PRODUCTION_SECRET_BYTES} bytes long when NODE_ENV=production`,
      );
  } else if (JWT_SECRET === undefined || JWT_SECRET === DEVELOPMENT_JWT_SECRET) {
    warnings.push(
      'JWT_SECRET is unset (or is the development secret): using the public development secret. Tokens are forgeable; set JWT_SECRET before exposing this server.',
    );
  }

  return {
    port: PORT,
    host: HOST,
    dbUrl: DB_URL,
    dbDatabase: DB_DATABASE,
    jwtSecret: JWT_SECRET ?? DEVELOPMENT_JWT_SECRET,
    nodeEnv: NODE_ENV,
    logLevel: LOG_LEVEL,
    corsOrigins: rest.CORS_ORIGINS,
    limits: {
      loginFailuresPerEmail: { max: rest.LOGIN_MAX_FAILURES_PER_EMAIL, windowSeconds: rest.LOGIN_FAILURE_WINDOW_SECONDS },
      loginFailuresPerAddress: { max: rest.LOGIN_MAX_FAILURES_PER_ADDRESS, windowSeconds: rest.LOGIN_FAILURE_WINDOW_SECONDS },
      signupsPerAddress: { max: rest.SIGNUP_MAX_PER_ADDRESS, windowSeconds: rest.SIGNUP_WINDOW_SECONDS },
    },
    sessions: { maxPerUser: rest.SESSIONS_MAX_PER_USER, maxAgeDays: rest.SESSION_MAX_AGE_DAYS },
    trustProxy: rest.TRUST_PROXY,
    apiDocs: rest.API_DOCS,
    postsAccess: rest.POSTS_ACCESS,
    webConcurrency: rest.WEB_CONCURRENCY,
    hashWorkers: rest.HASH_WORKERS,
    hashQueueMax: rest.HASH_QUEUE_MAX,
    connections: { open: rest.CONNECTIONS_MAX, lingering: rest.LINGERING_CONNECTIONS_MAX },
    shutdownDrainSeconds: rest.SHUTDOWN_DRAIN_SECONDS,
    warnings,
  };
}
