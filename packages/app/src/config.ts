import { DEFAULT_SERVER_TIMEOUTS } from '@inkwell/adapters-http';
import { POST_ACCESS_MODES, resetLinksKept, type PostAccessMode } from '@inkwell/domain';
import { isIPv4, isIPv6 } from 'node:net';
import { availableParallelism } from 'node:os';
import * as v from 'valibot';
import { BCRYPT_COST, BCRYPT_MAX_COST, BCRYPT_MIN_COST } from './adapters/bcrypt-password-hasher.js';
import type { Secrets } from './redact-url-passwords.js';

/** The JWT secret used when `JWT_SECRET` is unset outside production. Public by design: never use it for real. */
export const DEVELOPMENT_JWT_SECRET = 'inkwell-development-secret-do-not-use-in-production';
const MIN_PRODUCTION_SECRET_BYTES = 32;
const HOUR_SECONDS = 60 * 60;

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
    /** Password reset requests per e-mail asked for (known or not) from one client address, per hour. */
    readonly passwordResetsPerEmail: { readonly max: number; readonly windowSeconds: number };
    /** Password reset requests per client address, per hour. */
    readonly passwordResetsPerAddress: { readonly max: number; readonly windowSeconds: number };
    /** Verification mails an account may ask for (`POST /me/verify-email`), per hour. */
    readonly verificationMailsPerAccount: { readonly max: number; readonly windowSeconds: number };
  };
  /** Live sessions per account, and how many days a session may live however often it is refreshed. */
  readonly sessions: { readonly maxPerUser: number; readonly maxAgeDays: number };
  /** Take the client address from `X-Forwarded-For` (only behind a proxy you control). */
  readonly trustProxy: boolean;
  /** Serve `/openapi.json` and `/docs`. */
  readonly apiDocs: boolean;
  /** Build and write answers on the serving layer's fast path (`serveNode`'s `fastPath`). */
  readonly fastPath: boolean;
  /** Who may read and write which posts: `open` (anyone, as the contract says) or `owner`. */
  readonly postsAccess: PostAccessMode;
  /** Whether changes and deletions of posts must name the version they were made on (`If-Match`), and how long an idempotency key's first answer is kept. */
  readonly safeWrites: { readonly requirePrecondition: boolean; readonly idempotencyTtlSeconds: number };
  /** Worker processes sharing the port (MongoDB store only). */
  readonly webConcurrency: number;
  /** Threads in the password-hashing pool. */
  readonly hashWorkers: number;
  /** Hashing jobs that may wait for a thread before signup and login answer 503. */
  readonly hashQueueMax: number;
  /** bcrypt's work factor for new password hashes: 12, and nothing else in production. */
  readonly bcryptCost: number;
  /**
   * Connections one process holds open at once, from one client address (0: no bound, as with a
   * trusted proxy, whose address every connection has), and how many of them may be in their
   * lingering close.
   */
  readonly connections: { readonly open: number; readonly perAddress: number; readonly lingering: number };
  /** Mail (recovery, verification, notices): how it leaves, from whom, where its links point; null when it is off. */
  readonly mail: MailConfig | null;
  /** What mail and e-mail changes may cost: the budgets beside `limits`' reset and verification limits. */
  readonly mailBudgets: MailBudgets;
  /** How long the links in mail work, in seconds, and how many live reset links an account keeps (`passwordResetLinksKept`). */
  readonly mailLinks: { readonly passwordResetTtlSeconds: number; readonly emailVerifyTtlSeconds: number; readonly passwordResetLinksKept: number };
  /** How long a stopping process keeps serving (answering with `Connection: close`, readiness 503) before it stops accepting. */
  readonly shutdownDrainSeconds: number;
  /** Problems worth a loud line at start that do not stop it (the development secret in use). */
  readonly warnings: readonly string[];

  // Running the service: connections, secrets in output, writes per client.
  /** How long an idle keep-alive connection is kept open, in seconds: longer than the idle timeout of the load balancer in front. */
  readonly keepAliveTimeoutSeconds: number;
  /** What no log line may show: the passwords of `DB_URL` and `MAIL_URL` (whatever characters they hold), and `JWT_SECRET`. */
  readonly secrets: Secrets;
  /** The write budget of posts: post writes (create, change, delete) per client address within the window; a `max` of 0 turns it off. */
  readonly postWrites: { readonly max: number; readonly windowSeconds: number };
}

/** How mail leaves: through an SMTP server, or written to the log (`log:`, development only). */
export type MailTransport = SmtpTransport | { readonly kind: 'log' };

/** An SMTP server from `MAIL_URL`: `smtp://` (STARTTLS) or `smtps://` (TLS from the start). */
export interface SmtpTransport {
  readonly kind: 'smtp';
  /** TLS from the start (`smtps://`) rather than STARTTLS. */
  readonly secure: boolean;
  /**
   * For `smtp://`: whether mail goes only over STARTTLS (`required`: a server that does not offer
   * it gets nothing), or over STARTTLS when the server offers it and in clear otherwise
   * (`optional`). `MAIL_URL`'s `?starttls=`; `required` by default, but for a loopback host.
   */
  readonly starttls: 'required' | 'optional';
  readonly host: string;
  readonly port: number;
  /** The login, when the URL has one (user and password URL-decoded). */
  readonly auth?: { readonly user: string; readonly pass: string };
}

/** Mail that is on: its transport, its sender, and the front end its links point to. */
export interface MailConfig {
  readonly transport: MailTransport;
  /** The sender, `address` or `Name <address>` (`MAIL_FROM`). */
  readonly from: string;
  /**
   * The front end's base URL, without a trailing slash (`APP_URL`): links are `{appUrl}/reset-password?token=…`.
   * Null for `log:` mail without `APP_URL` (development): links point at the server itself, at
   * the address and port it listens on (`serverLinkBase`), where inkwell serves both pages.
   */
  readonly appUrl: string | null;
}

/** The sender `log:` mail uses when `MAIL_FROM` is unset (development). */
export const DEVELOPMENT_MAIL_FROM = 'inkwell <no-reply@localhost>';

/** The start-up line of a production process without `MAIL_URL`. */
export const MAIL_OFF =
  'mail: off (MAIL_URL is unset and NODE_ENV=production). Password reset and e-mail verification are not served; set MAIL_URL to an smtp:// or smtps:// server to turn them on.';

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

/** `address` or `Name <address>`: one address, nothing a header could be split with. */
const MAIL_FROM_FORM = /^(?:[^<>\r\n@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

/** An http(s) URL a link can be built on: a host, maybe a path, no query, fragment or credentials. */
function isAppUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '' && !value.includes('?') && !value.includes('#') && url.username === '' && url.password === '';
}

/** The usage line of every `MAIL_URL` refusal; it never repeats the value, which may hold a password. */
const MAIL_URL_FORMS = 'MAIL_URL must be smtp://[user:password@]host[:port][?starttls=optional], smtps://[user:password@]host[:port] or log:';

/** Whether `host` (a URL's host name, IPv6 without brackets) names this machine: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIPv4(name)) return name.startsWith('127.');
  if (isIPv6(name)) return name === '::1' || /^(0{1,4}:){7}0{0,3}1$/.test(name) || /^::ffff:127\./.test(name);
  return false;
}

/** `MAIL_URL`'s query: nothing, or `starttls=required|optional` (smtp:// only); a `ConfigError` otherwise. */
function starttlsOf(url: URL, secure: boolean): 'required' | 'optional' | undefined {
  const names = [...url.searchParams.keys()];
  if (url.search === '' || url.search === '?') return undefined;
  const value = url.searchParams.get('starttls');
  if (secure || names.length !== 1 || names[0] !== 'starttls' || (value !== 'required' && value !== 'optional'))
    throw new ConfigError(`${MAIL_URL_FORMS}: the one query it takes is ?starttls=required or ?starttls=optional, with smtp://`);
  return value;
}

/** `MAIL_URL` as a transport; a `ConfigError` naming the problem, never the value, when it is none. */
function mailTransport(value: string): MailTransport {
  if (value === 'log:') return { kind: 'log' };
  const url = URL.canParse(value) ? new URL(value) : null;
  if (url === null || (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '')
    throw new ConfigError(MAIL_URL_FORMS);
  if ((url.pathname !== '' && url.pathname !== '/') || url.hash !== '') throw new ConfigError(`${MAIL_URL_FORMS}, without a path or fragment`);
  const secure = url.protocol === 'smtps:';
  // An IPv6 literal keeps its brackets in a URL, not in a socket address.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return {
    kind: 'smtp',
    secure,
    starttls: starttlsOf(url, secure) ?? (isLoopbackHost(host) ? 'optional' : 'required'),
    host,
    port: url.port === '' ? (secure ? 465 : 587) : Number(url.port),
    ...(url.username === '' ? {} : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
  };
}

/**
 * Mail as the environment sets it: `MAIL_URL` (default `log:` outside production; unset in
 * production, mail is off), `MAIL_FROM` and `APP_URL`, both required with SMTP and defaulted for
 * `log:` (`APP_URL` then being the server's own address, known once it listens). `log:` writes
 * links to the log, so production refuses it.
 */
function mailConfig(env: { MAIL_URL?: string; MAIL_FROM?: string; APP_URL?: string }, production: boolean): MailConfig | null {
  if (env.MAIL_URL === undefined && production) return null;
  const transport = mailTransport(env.MAIL_URL ?? 'log:');
  if (transport.kind === 'log') {
    if (production) throw new ConfigError('MAIL_URL=log: writes every mail, its link included, to the log: it is refused when NODE_ENV=production');
    return { transport, from: env.MAIL_FROM ?? DEVELOPMENT_MAIL_FROM, appUrl: env.APP_URL ?? null };
  }
  if (env.MAIL_FROM === undefined) throw new ConfigError('MAIL_FROM must be set when MAIL_URL is an SMTP server: it is the sender of every mail');
  if (env.APP_URL === undefined) throw new ConfigError('APP_URL must be set when MAIL_URL is an SMTP server: the links in mail point to it');
  return { transport, from: env.MAIL_FROM, appUrl: env.APP_URL };
}

// ---- Mail budgets (docs/security.md, "Mail bombing"): what mail and e-mail changes may cost. ----

/** One budget: at most `max` in a fixed window of `windowSeconds` (an hour), 0 turning it off. */
export interface Budget {
  readonly max: number;
  readonly windowSeconds: number;
}

/** The budgets of mail and of e-mail changes; each counted where the store keeps its limits. */
export interface MailBudgets {
  /** Password reset requests per e-mail from every client address together, per hour: the cap that bounds flooding one address. */
  readonly passwordResetsPerEmailTotal: Budget;
  /** Mails sent to one mailbox (an address without its `+tag`) per hour, whatever asked for them (signup, verification, reset, e-mail change, notices). */
  readonly mailsPerRecipient: Budget;
  /** The part of `mailsPerRecipient` that link mails (reset, verification: what anyone can cause) may use: all of it less `MAIL_NOTICE_RESERVE`. */
  readonly linkMailsPerRecipient: Budget;
  /** E-mail changes (`PATCH /me` with a new `email`, a 409 included) per account per hour. */
  readonly emailChangesPerAccount: Budget;
  /** E-mail changes per client address per hour, a 409 included. */
  readonly emailChangesPerAddress: Budget;
}

/**
 * The last mails of each recipient's hourly budget that only the notices (a password changed, an
 * address changed) may use: mail anyone can cause (reset and verification links) stops this many
 * short of the budget, so strangers who spend it cannot keep an owner from hearing that their
 * password or address changed. Two: one of each notice.
 */
export const MAIL_NOTICE_RESERVE = 2;

/**
 * The live reset links an account keeps when neither `PASSWORD_RESET_MAX_PER_EMAIL_TOTAL` nor
 * `MAIL_MAX_PER_RECIPIENT` bounds how many can be asked for: past it the oldest goes.
 */
export const RESET_LINKS_KEPT_WITHOUT_LIMITS = 100;

const MAIL_BUDGET_SETTINGS = {
  PASSWORD_RESET_MAX_PER_EMAIL_TOTAL: wholeNumber('PASSWORD_RESET_MAX_PER_EMAIL_TOTAL', 10),
  MAIL_MAX_PER_RECIPIENT: v.pipe(
    wholeNumber('MAIL_MAX_PER_RECIPIENT', 10),
    v.check(
      (max) => max === 0 || max > MAIL_NOTICE_RESERVE,
      `MAIL_MAX_PER_RECIPIENT must be 0 (off) or more than ${MAIL_NOTICE_RESERVE}: the last ${MAIL_NOTICE_RESERVE} mails of each hour are kept for the notices`,
    ),
  ),
  EMAIL_CHANGE_MAX_PER_ACCOUNT: wholeNumber('EMAIL_CHANGE_MAX_PER_ACCOUNT', 3),
  EMAIL_CHANGE_MAX_PER_ADDRESS: wholeNumber('EMAIL_CHANGE_MAX_PER_ADDRESS', 30),
};

/** The budgets from their settings, an hour each. */
function mailBudgets(env: v.InferOutput<v.ObjectSchema<typeof MAIL_BUDGET_SETTINGS, undefined>>): MailBudgets {
  const hourly = (max: number): Budget => ({ max, windowSeconds: HOUR_SECONDS });
  return {
    passwordResetsPerEmailTotal: hourly(env.PASSWORD_RESET_MAX_PER_EMAIL_TOTAL),
    mailsPerRecipient: hourly(env.MAIL_MAX_PER_RECIPIENT),
    linkMailsPerRecipient: hourly(env.MAIL_MAX_PER_RECIPIENT === 0 ? 0 : env.MAIL_MAX_PER_RECIPIENT - MAIL_NOTICE_RESERVE),
    emailChangesPerAccount: hourly(env.EMAIL_CHANGE_MAX_PER_ACCOUNT),
    emailChangesPerAddress: hourly(env.EMAIL_CHANGE_MAX_PER_ADDRESS),
  };
}

/**
 * The live reset links an account keeps: as many as can be asked for its e-mail while a link lives
 * (`resetLinksKept`), so that a newer request never ends an older link within the limits. Counted
 * from the overall cap on reset requests per e-mail, or when it is off from the link mails one
 * mailbox may be sent (each link is recorded only with its mail); with both off,
 * `RESET_LINKS_KEPT_WITHOUT_LIMITS`.
 */
function passwordResetLinksKept(budgets: MailBudgets, ttlSeconds: number): number {
  const bound = [budgets.passwordResetsPerEmailTotal, budgets.linkMailsPerRecipient].find((budget) => budget.max > 0);
  return bound === undefined ? RESET_LINKS_KEPT_WITHOUT_LIMITS : resetLinksKept(bound.max, bound.windowSeconds * 1000, ttlSeconds * 1000);
}

// ---- end of the mail budgets ----

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
  FAST_PATH: onOff('FAST_PATH', 'on'),
  POSTS_ACCESS: v.optional(v.picklist(POST_ACCESS_MODES, `POSTS_ACCESS must be ${POST_ACCESS_MODES.join(' or ')}`), 'open'),
  POSTS_REQUIRE_PRECONDITION: onOff('POSTS_REQUIRE_PRECONDITION', 'off'),
  IDEMPOTENCY_TTL_SECONDS: wholeNumber('IDEMPOTENCY_TTL_SECONDS', 24 * 60 * 60, 60),
  WEB_CONCURRENCY: wholeNumber('WEB_CONCURRENCY', 1, 1),
  HASH_WORKERS: wholeNumber('HASH_WORKERS', availableParallelism(), 1),
  HASH_QUEUE_MAX: wholeNumber('HASH_QUEUE_MAX', 32),
  BCRYPT_COST: v.pipe(
    wholeNumber('BCRYPT_COST', BCRYPT_COST, BCRYPT_MIN_COST),
    // Each step doubles what every signup, login and password change costs, and what a start-up costs once.
    v.maxValue(BCRYPT_MAX_COST, `BCRYPT_COST must be at most ${BCRYPT_MAX_COST}`),
  ),
  CONNECTIONS_MAX: wholeNumber('CONNECTIONS_MAX', 1024, 1),
  CONNECTIONS_PER_ADDRESS_MAX: wholeNumber('CONNECTIONS_PER_ADDRESS_MAX', 256),
  LINGERING_CONNECTIONS_MAX: wholeNumber('LINGERING_CONNECTIONS_MAX', 128),
  MAIL_URL: v.optional(v.string()),
  MAIL_FROM: v.optional(
    v.pipe(v.string(), v.regex(MAIL_FROM_FORM, 'MAIL_FROM must be an address (no-reply@example.com) or a name and address (Example <no-reply@example.com>)')),
  ),
  APP_URL: v.optional(
    v.pipe(
      v.string(),
      v.check(isAppUrl, 'APP_URL must be an http:// or https:// URL without a query or fragment, like https://app.example.com'),
      v.transform((url) => url.replace(/\/+$/, '')),
    ),
  ),
  PASSWORD_RESET_TTL_SECONDS: v.pipe(
    wholeNumber('PASSWORD_RESET_TTL_SECONDS', 30 * 60, 60),
    // A link kept for its whole life: a longer one would let the links an account keeps grow past reason.
    v.maxValue(24 * HOUR_SECONDS, `PASSWORD_RESET_TTL_SECONDS must be at most ${24 * HOUR_SECONDS}`),
  ),
  EMAIL_VERIFY_TTL_SECONDS: wholeNumber('EMAIL_VERIFY_TTL_SECONDS', 24 * 60 * 60, 60),
  PASSWORD_RESET_MAX_PER_EMAIL: wholeNumber('PASSWORD_RESET_MAX_PER_EMAIL', 3),
  PASSWORD_RESET_MAX_PER_ADDRESS: wholeNumber('PASSWORD_RESET_MAX_PER_ADDRESS', 30),
  EMAIL_VERIFY_MAX_PER_ACCOUNT: wholeNumber('EMAIL_VERIFY_MAX_PER_ACCOUNT', 3),
  SHUTDOWN_DRAIN_SECONDS: wholeNumber('SHUTDOWN_DRAIN_SECONDS', 5),
  ...MAIL_BUDGET_SETTINGS,

  // Running the service.
  KEEP_ALIVE_TIMEOUT_SECONDS: wholeNumber('KEEP_ALIVE_TIMEOUT_SECONDS', DEFAULT_SERVER_TIMEOUTS.keepAliveMs / 1000, 1),
  POST_WRITES_MAX_PER_ADDRESS: wholeNumber('POST_WRITES_MAX_PER_ADDRESS', 300),
  POST_WRITE_WINDOW_SECONDS: wholeNumber('POST_WRITE_WINDOW_SECONDS', HOUR_SECONDS, 1),
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
  const { PORT, HOST, DB_URL, DB_DATABASE, JWT_SECRET, NODE_ENV, LOG_LEVEL, MAIL_URL, MAIL_FROM, APP_URL, ...rest } = result.output;

  const warnings: string[] = [];
  if (NODE_ENV === 'production') {
    if (JWT_SECRET === undefined) throw new ConfigError('JWT_SECRET must be set when NODE_ENV=production');
    if (JWT_SECRET === DEVELOPMENT_JWT_SECRET)
      throw new ConfigError('JWT_SECRET must not be the development secret when NODE_ENV=production');
    if (Buffer.byteLength(JWT_SECRET, 'utf8') < MIN_PRODUCTION_SECRET_BYTES)
      throw new ConfigError(
        `JWT_SECRET must be at least ${MIN_PRODUCTION_SECRET_BYTES} bytes long when NODE_ENV=production`,
      );
    // A login for an unknown address checks a dummy hash of the configured cost, and a known one
    // its stored hash: every stored hash is cost 12, so any other cost would time them apart.
    if (rest.BCRYPT_COST !== BCRYPT_COST) throw new ConfigError(`BCRYPT_COST must be ${BCRYPT_COST} when NODE_ENV=production`);
  } else if (JWT_SECRET === undefined || JWT_SECRET === DEVELOPMENT_JWT_SECRET) {
    warnings.push(
      'JWT_SECRET is unset (or is the development secret): using the public development secret. Tokens are forgeable; set JWT_SECRET before exposing this server.',
    );
  }

  const mail = mailConfig({ MAIL_URL, MAIL_FROM, APP_URL }, NODE_ENV === 'production');
  if (mail?.transport.kind === 'smtp' && !mail.transport.secure && mail.transport.starttls === 'optional' && !isLoopbackHost(mail.transport.host))
    warnings.push('MAIL_URL has ?starttls=optional: mail to a server that offers no STARTTLS, or whose offer is stripped on the way, travels in clear. Use it only for a relay on a network you trust.');

  const budgets = mailBudgets(rest);
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
      passwordResetsPerEmail: { max: rest.PASSWORD_RESET_MAX_PER_EMAIL, windowSeconds: HOUR_SECONDS },
      passwordResetsPerAddress: { max: rest.PASSWORD_RESET_MAX_PER_ADDRESS, windowSeconds: HOUR_SECONDS },
      verificationMailsPerAccount: { max: rest.EMAIL_VERIFY_MAX_PER_ACCOUNT, windowSeconds: HOUR_SECONDS },
    },
    sessions: { maxPerUser: rest.SESSIONS_MAX_PER_USER, maxAgeDays: rest.SESSION_MAX_AGE_DAYS },
    trustProxy: rest.TRUST_PROXY,
    apiDocs: rest.API_DOCS,
    fastPath: rest.FAST_PATH,
    postsAccess: rest.POSTS_ACCESS,
    safeWrites: { requirePrecondition: rest.POSTS_REQUIRE_PRECONDITION, idempotencyTtlSeconds: rest.IDEMPOTENCY_TTL_SECONDS },
    webConcurrency: rest.WEB_CONCURRENCY,
    hashWorkers: rest.HASH_WORKERS,
    hashQueueMax: rest.HASH_QUEUE_MAX,
    bcryptCost: rest.BCRYPT_COST,
    // Behind a trusted proxy every connection comes from the proxy's address: clients are told
    // apart by X-Forwarded-For, per request, and the per-address bound would bound the proxy.
    connections: { open: rest.CONNECTIONS_MAX, perAddress: rest.TRUST_PROXY ? 0 : rest.CONNECTIONS_PER_ADDRESS_MAX, lingering: rest.LINGERING_CONNECTIONS_MAX },
    mail,
    mailBudgets: budgets,
    mailLinks: {
      passwordResetTtlSeconds: rest.PASSWORD_RESET_TTL_SECONDS,
      emailVerifyTtlSeconds: rest.EMAIL_VERIFY_TTL_SECONDS,
      passwordResetLinksKept: passwordResetLinksKept(budgets, rest.PASSWORD_RESET_TTL_SECONDS),
    },
    shutdownDrainSeconds: rest.SHUTDOWN_DRAIN_SECONDS,
    warnings,

    keepAliveTimeoutSeconds: rest.KEEP_ALIVE_TIMEOUT_SECONDS,
    secrets: {
      urls: [DB_URL, ...(MAIL_URL === undefined ? [] : [MAIL_URL])],
      values: JWT_SECRET === undefined || JWT_SECRET === DEVELOPMENT_JWT_SECRET ? [] : [JWT_SECRET],
    },
    postWrites: { max: rest.POST_WRITES_MAX_PER_ADDRESS, windowSeconds: rest.POST_WRITE_WINDOW_SECONDS },
  };
}
