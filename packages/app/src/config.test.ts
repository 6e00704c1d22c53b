import { DEFAULT_MAIL_RULES } from '@inkwell/domain';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  DEVELOPMENT_JWT_SECRET,
  DEVELOPMENT_MAIL_FROM,
  MAIL_NOTICE_RESERVE,
  MAIL_OFF,
  RESET_LINKS_KEPT_WITHOUT_LIMITS,
  readConfig,
  SETTING_NAMES,
  type Config,
} from './config.js';

const PRODUCTION_SECRET = 'p'.repeat(32);

/** The settings this file covers (the server, the store, the token secret, logging); others have their own tests. */
const CORE_KEYS = ['port', 'host', 'dbUrl', 'dbDatabase', 'jwtSecret', 'nodeEnv', 'logLevel', 'warnings'] as const;
function core(config: Config): Pick<Config, (typeof CORE_KEYS)[number]> {
  return Object.fromEntries(CORE_KEYS.map((key) => [key, config[key]])) as Pick<Config, (typeof CORE_KEYS)[number]>;
}

/** The ConfigError `readConfig(env)` throws; fails the test if it returns or throws anything else. */
function refusal(env: Record<string, string | undefined>): ConfigError {
  let error: unknown;
  try {
    readConfig(env);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('readConfig', () => {
  describe('defaults', () => {
    it('uses every default for an empty environment, with the development secret and one warning', () => {
      expect(core(readConfig({}))).toStrictEqual({
        port: 3000,
        host: '0.0.0.0',
        dbUrl: 'mongodb://127.0.0.1:27017',
        dbDatabase: 'inkwell',
        jwtSecret: DEVELOPMENT_JWT_SECRET,
        nodeEnv: 'development',
        logLevel: 'info',
        warnings: [expect.stringContaining('JWT_SECRET')],
      });
    });

    it('counts empty strings as unset', () => {
      const empty = { PORT: '', HOST: '', DB_URL: '', DB_DATABASE: '', JWT_SECRET: '', NODE_ENV: '', LOG_LEVEL: '' };
      expect(readConfig(empty)).toStrictEqual(readConfig({}));
    });

    it('counts undefined values as unset', () => {
      expect(readConfig({ PORT: undefined, JWT_SECRET: undefined })).toStrictEqual(readConfig({}));
    });

    it('ignores variables it does not know', () => {
      expect(readConfig({ PATH: '/usr/bin', HOME: '/root', PORTS: 'x' })).toStrictEqual(readConfig({}));
    });
  });

  describe('values taken from the environment', () => {
    it('reads each of these variables', () => {
      const env = {
        PORT: '8080',
        HOST: '127.0.0.1',
        DB_URL: 'mongodb+srv://user:pw@cluster.example.net/?retryWrites=true',
        DB_DATABASE: 'blog_prod',
        JWT_SECRET: 'a-secret-of-any-length-outside-production',
        NODE_ENV: 'test',
        LOG_LEVEL: 'debug',
      };
      const config = core(readConfig(env));
      expect(config).toStrictEqual({
        port: 8080,
        host: '127.0.0.1',
        dbUrl: 'mongodb+srv://user:pw@cluster.example.net/?retryWrites=true',
        dbDatabase: 'blog_prod',
        jwtSecret: 'a-secret-of-any-length-outside-production',
        nodeEnv: 'test',
        logLevel: 'debug',
        warnings: [],
      });
    });

    it.each([
      ['0', 0],
      ['1', 1],
      ['65535', 65_535],
    ])('accepts PORT %j as the number %i', (PORT, port) => {
      expect(readConfig({ PORT }).port).toBe(port);
    });

    it.each(['memory:', 'mongodb://localhost', 'mongodb://db1:27017,db2:27017/?replicaSet=rs0'])(
      'accepts DB_URL %j',
      (DB_URL) => {
        expect(readConfig({ DB_URL }).dbUrl).toBe(DB_URL);
      },
    );

    it.each(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])('accepts LOG_LEVEL %j', (LOG_LEVEL) => {
      expect(readConfig({ LOG_LEVEL }).logLevel).toBe(LOG_LEVEL);
    });
  });

  describe('invalid values', () => {
    it.each(['abc', '70000', '-1', '65536', '3000.5', '1e3', ' 3000', '0x50', '123456'])('refuses PORT %j', (PORT) => {
      const error = refusal({ PORT });
      expect(error.name).toBe('ConfigError');
      expect(error.message).toMatch(/PORT/);
    });

    it.each(['http://localhost:27017', 'mongodb://', 'localhost:27017', 'memory', 'MONGODB://localhost', ' mongodb://x'])(
      'refuses DB_URL %j',
      (DB_URL) => {
        expect(refusal({ DB_URL }).message).toMatch(/DB_URL/);
      },
    );

    it.each(['my.db', 'a/b', 'with space', 'x'.repeat(64), 'dollar$'])('refuses DB_DATABASE %j', (DB_DATABASE) => {
      expect(refusal({ DB_DATABASE }).message).toMatch(/DB_DATABASE/);
    });

    it.each(['verbose', 'INFO', '30'])('refuses LOG_LEVEL %j', (LOG_LEVEL) => {
      expect(refusal({ LOG_LEVEL }).message).toMatch(/LOG_LEVEL/);
    });
  });

  describe('BCRYPT_COST', () => {
    it('is 12 by default, in production and out of it', () => {
      expect(readConfig({}).bcryptCost).toBe(12);
      expect(readConfig({ NODE_ENV: 'production', JWT_SECRET: PRODUCTION_SECRET }).bcryptCost).toBe(12);
    });

    it('reads 4 to 14 outside production, and 12 in production', () => {
      expect(readConfig({ BCRYPT_COST: '4' }).bcryptCost).toBe(4);
      expect(readConfig({ BCRYPT_COST: '14' }).bcryptCost).toBe(14);
      expect(readConfig({ NODE_ENV: 'production', JWT_SECRET: PRODUCTION_SECRET, BCRYPT_COST: '12' }).bcryptCost).toBe(12);
    });

    it.each(['3', '15', '12.5', 'twelve', '-12'])('refuses %j, naming it', (BCRYPT_COST) => {
      expect(refusal({ BCRYPT_COST }).message).toMatch(/^BCRYPT_COST must be/);
    });

    it('refuses any other cost in production, where every stored hash is cost 12 and a login must not tell them from the dummy hash', () => {
      for (const BCRYPT_COST of ['4', '11', '13'])
        expect(refusal({ NODE_ENV: 'production', JWT_SECRET: PRODUCTION_SECRET, BCRYPT_COST }).message).toBe('BCRYPT_COST must be 12 when NODE_ENV=production');
    });
  });

  describe('SESSIONS_MAX_PER_USER and SESSION_MAX_AGE_DAYS', () => {
    it('default to 20 sessions and 30 days', () => {
      expect(readConfig({}).sessions).toStrictEqual({ maxPerUser: 20, maxAgeDays: 30 });
      expect(readConfig({ SESSIONS_MAX_PER_USER: '', SESSION_MAX_AGE_DAYS: '' }).sessions).toStrictEqual({ maxPerUser: 20, maxAgeDays: 30 });
    });

    it('read whole numbers from 1', () => {
      expect(readConfig({ SESSIONS_MAX_PER_USER: '1', SESSION_MAX_AGE_DAYS: '365' }).sessions).toStrictEqual({ maxPerUser: 1, maxAgeDays: 365 });
    });

    it.each([
      ['SESSIONS_MAX_PER_USER', '0', 'SESSIONS_MAX_PER_USER must be at least 1'],
      ['SESSIONS_MAX_PER_USER', 'many', 'SESSIONS_MAX_PER_USER must be a whole number'],
      ['SESSION_MAX_AGE_DAYS', '0', 'SESSION_MAX_AGE_DAYS must be at least 1'],
      ['SESSION_MAX_AGE_DAYS', '7.5', 'SESSION_MAX_AGE_DAYS must be a whole number'],
    ])('refuses %s=%j with one line naming it', (name, value, message) => {
      expect(refusal({ [name]: value }).message).toBe(message);
    });
  });

  describe('CONNECTIONS_MAX, CONNECTIONS_PER_ADDRESS_MAX and LINGERING_CONNECTIONS_MAX', () => {
    it('default to 1024 open connections, 256 from one address, 128 of them lingering', () => {
      expect(readConfig({}).connections).toStrictEqual({ open: 1024, perAddress: 256, lingering: 128 });
    });

    it('read whole numbers, from 1 open connection, from 0 per address (no bound) and from 0 lingering ones (no lingering close)', () => {
      expect(readConfig({ CONNECTIONS_MAX: '1', CONNECTIONS_PER_ADDRESS_MAX: '0', LINGERING_CONNECTIONS_MAX: '0' }).connections).toStrictEqual({ open: 1, perAddress: 0, lingering: 0 });
      expect(readConfig({ CONNECTIONS_PER_ADDRESS_MAX: '6' }).connections.perAddress).toBe(6);
    });

    it('bounds no address with TRUST_PROXY=on, where every connection comes from the proxy', () => {
      expect(readConfig({ TRUST_PROXY: 'on', CONNECTIONS_PER_ADDRESS_MAX: '6' }).connections).toStrictEqual({ open: 1024, perAddress: 0, lingering: 128 });
    });

    it.each([
      ['CONNECTIONS_MAX', '0', 'CONNECTIONS_MAX must be at least 1'],
      ['CONNECTIONS_MAX', 'unlimited', 'CONNECTIONS_MAX must be a whole number'],
      ['CONNECTIONS_PER_ADDRESS_MAX', '-1', 'CONNECTIONS_PER_ADDRESS_MAX must be a whole number'],
      ['LINGERING_CONNECTIONS_MAX', '-1', 'LINGERING_CONNECTIONS_MAX must be a whole number'],
    ])('refuses %s=%j with one line naming it', (name, value, message) => {
      expect(refusal({ [name]: value }).message).toBe(message);
    });
  });

  describe('POST_WRITES_MAX_PER_ADDRESS and POST_WRITE_WINDOW_SECONDS', () => {
    it('default to 300 post writes an hour, and 0 turns the budget off', () => {
      expect(readConfig({}).postWrites).toStrictEqual({ max: 300, windowSeconds: 3600 });
      expect(readConfig({ POST_WRITES_MAX_PER_ADDRESS: '0', POST_WRITE_WINDOW_SECONDS: '60' }).postWrites).toStrictEqual({ max: 0, windowSeconds: 60 });
    });

    it.each([
      ['POST_WRITES_MAX_PER_ADDRESS', '-1', 'POST_WRITES_MAX_PER_ADDRESS must be a whole number'],
      ['POST_WRITE_WINDOW_SECONDS', '0', 'POST_WRITE_WINDOW_SECONDS must be at least 1'],
    ])('refuses %s=%j with one line naming it', (name, value, message) => {
      expect(refusal({ [name]: value }).message).toBe(message);
    });
  });

  describe('the secrets no line may show', () => {
    it('are the URLs of the database and of mail, and a signing secret of ours', () => {
      const config = readConfig({ DB_URL: 'mongodb://u:p@db/', MAIL_URL: 'smtp://m:q@mail', MAIL_FROM: 'a@example.com', APP_URL: 'https://app.example.com', JWT_SECRET: 'a-signing-secret-of-more-than-32-bytes' });
      expect(config.secrets).toStrictEqual({ urls: ['mongodb://u:p@db/', 'smtp://m:q@mail'], values: ['a-signing-secret-of-more-than-32-bytes'] });
      // The public development secret is no secret.
      expect(readConfig({}).secrets).toStrictEqual({ urls: ['mongodb://127.0.0.1:27017'], values: [] });
    });
  });

  describe('SHUTDOWN_DRAIN_SECONDS', () => {
    it('drains for 5 s by default, and for any whole number of seconds, 0 (no drain) included', () => {
      expect(readConfig({}).shutdownDrainSeconds).toBe(5);
      expect(readConfig({ SHUTDOWN_DRAIN_SECONDS: '30' }).shutdownDrainSeconds).toBe(30);
      expect(readConfig({ SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainSeconds).toBe(0);
    });

    it.each(['-1', '1.5', 'soon'])('refuses SHUTDOWN_DRAIN_SECONDS=%j with one line naming it', (value) => {
      expect(refusal({ SHUTDOWN_DRAIN_SECONDS: value }).message).toBe('SHUTDOWN_DRAIN_SECONDS must be a whole number');
    });
  });

  describe('FAST_PATH', () => {
    it('is on by default, and off when asked', () => {
      expect(readConfig({}).fastPath).toBe(true);
      expect(readConfig({ FAST_PATH: 'off' }).fastPath).toBe(false);
      expect(readConfig({ FAST_PATH: 'on' }).fastPath).toBe(true);
    });

    it('refuses anything but on or off, with one line naming it', () => {
      expect(refusal({ FAST_PATH: 'fast' }).message).toBe('FAST_PATH must be on or off');
    });
  });

  describe('POSTS_ACCESS', () => {
    it('is open by default: the contract as written', () => {
      expect(readConfig({}).postsAccess).toBe('open');
      expect(readConfig({ POSTS_ACCESS: '' }).postsAccess).toBe('open');
    });

    it.each(['open', 'owner'] as const)('reads %j', (POSTS_ACCESS) => {
      expect(readConfig({ POSTS_ACCESS }).postsAccess).toBe(POSTS_ACCESS);
    });

    it.each(['Owner', 'OPEN', 'owners', 'closed', 'on', ' owner'])('refuses %j with one line naming both values', (POSTS_ACCESS) => {
      expect(refusal({ POSTS_ACCESS }).message).toBe('POSTS_ACCESS must be open or owner');
    });
  });

  describe('safe writes: POSTS_REQUIRE_PRECONDITION and IDEMPOTENCY_TTL_SECONDS', () => {
    it('leaves writes unconditional and keeps idempotency keys a day by default', () => {
      expect(readConfig({}).safeWrites).toStrictEqual({ requirePrecondition: false, idempotencyTtlSeconds: 86_400 });
    });

    it('reads them', () => {
      expect(readConfig({ POSTS_REQUIRE_PRECONDITION: 'on', IDEMPOTENCY_TTL_SECONDS: '3600' }).safeWrites).toStrictEqual({
        requirePrecondition: true,
        idempotencyTtlSeconds: 3600,
      });
    });

    it.each([
      [{ POSTS_REQUIRE_PRECONDITION: 'yes' }, 'POSTS_REQUIRE_PRECONDITION must be on or off'],
      [{ IDEMPOTENCY_TTL_SECONDS: '59' }, 'IDEMPOTENCY_TTL_SECONDS must be at least 60'],
      [{ IDEMPOTENCY_TTL_SECONDS: '1d' }, 'IDEMPOTENCY_TTL_SECONDS must be a whole number'],
    ])('refuses %j with one line naming it', (env, message) => {
      expect(refusal(env).message).toBe(message);
    });
  });

  describe('JWT_SECRET in production', () => {
    it.each([{}, { JWT_SECRET: '' }])('refuses a missing secret (%j) and says it must be set', (env) => {
      const { message } = refusal({ NODE_ENV: 'production', ...env });
      expect(message).toMatch(/JWT_SECRET must be set/);
      expect(message).not.toMatch(/development secret|bytes/);
    });

    it('refuses the development secret and says so', () => {
      const { message } = refusal({ NODE_ENV: 'production', JWT_SECRET: DEVELOPMENT_JWT_SECRET });
      expect(DEVELOPMENT_JWT_SECRET.length).toBeGreaterThanOrEqual(32); // so only this check can refuse it
      expect(message).toMatch(/development secret/);
      expect(message).not.toMatch(/must be set|bytes/);
    });

    it('refuses a 31-byte secret and names the 32-byte minimum', () => {
      const { message } = refusal({ NODE_ENV: 'production', JWT_SECRET: 's'.repeat(31) });
      expect(message).toMatch(/at least 32 bytes/);
      expect(message).not.toMatch(/must be set|development secret/);
    });

    it('accepts a 32-byte secret, with no warning', () => {
      const config = readConfig({ NODE_ENV: 'production', JWT_SECRET: PRODUCTION_SECRET });
      expect(config.jwtSecret).toBe(PRODUCTION_SECRET);
      expect(config.nodeEnv).toBe('production');
      expect(config.warnings).toEqual([]);
    });

    it('counts the secret in UTF-8 bytes, not characters', () => {
      // 31 characters, 32 bytes: accepted.
      const shortButWide = `é${'s'.repeat(30)}`;
      expect(shortButWide).toHaveLength(31);
      expect(readConfig({ NODE_ENV: 'production', JWT_SECRET: shortButWide }).jwtSecret).toBe(shortButWide);
      // 16 characters, 32 bytes: accepted.
      expect(readConfig({ NODE_ENV: 'production', JWT_SECRET: 'é'.repeat(16) }).jwtSecret).toBe('é'.repeat(16));
      // 10 characters, 30 bytes: refused.
      expect(refusal({ NODE_ENV: 'production', JWT_SECRET: '€'.repeat(10) }).message).toMatch(/32 bytes/);
    });

    it('still validates the other variables in production', () => {
      expect(refusal({ NODE_ENV: 'production', JWT_SECRET: PRODUCTION_SECRET, PORT: 'abc' }).message).toMatch(/PORT/);
    });
  });

  describe('JWT_SECRET outside production', () => {
    it.each([{}, { NODE_ENV: 'development' }, { NODE_ENV: 'test' }])(
      'falls back to the development secret with exactly one warning (%j)',
      (env) => {
        const config = readConfig(env);
        expect(config.jwtSecret).toBe(DEVELOPMENT_JWT_SECRET);
        expect(config.warnings).toHaveLength(1);
        expect(config.warnings[0]).toMatch(/JWT_SECRET/);
      },
    );

    it('uses a given secret of any length without a warning', () => {
      const config = readConfig({ JWT_SECRET: 'short' });
      expect(config.jwtSecret).toBe('short');
      expect(config.warnings).toEqual([]);
    });

    it('warns when the development secret is set explicitly', () => {
      const config = readConfig({ JWT_SECRET: DEVELOPMENT_JWT_SECRET });
      expect(config.jwtSecret).toBe(DEVELOPMENT_JWT_SECRET);
      expect(config.warnings).toHaveLength(1);
    });

    it('never puts the secret into a warning', () => {
      const config = readConfig({});
      expect(config.warnings.join(' ')).not.toContain(DEVELOPMENT_JWT_SECRET);
    });
  });
});

describe('mail: MAIL_URL, MAIL_FROM, APP_URL', () => {
  const SMTP = { MAIL_URL: 'smtp://mail.example.com:2525', MAIL_FROM: 'Example <no-reply@example.com>', APP_URL: 'https://app.example.com' };

  it("is log: outside production by default, from a development sender, with links to the server's own address (no APP_URL)", () => {
    for (const env of [{}, { NODE_ENV: 'test' }, { NODE_ENV: 'development', MAIL_URL: 'log:' }, { PORT: '0', HOST: '127.0.0.1' }]) {
      expect(readConfig(env).mail).toStrictEqual({ transport: { kind: 'log' }, from: DEVELOPMENT_MAIL_FROM, appUrl: null });
    }
    expect(readConfig({ APP_URL: 'http://localhost:5173/' }).mail).toStrictEqual({ transport: { kind: 'log' }, from: DEVELOPMENT_MAIL_FROM, appUrl: 'http://localhost:5173' });
  });

  it('is off in production without MAIL_URL, and adds no warning: the start-up line is MAIL_OFF', () => {
    const config = readConfig({ NODE_ENV: 'production', JWT_SECRET: PRODUCTION_SECRET });
    expect(config.mail).toBeNull();
    expect(config.warnings).toEqual([]);
    expect(MAIL_OFF).toMatch(/^mail: off .*MAIL_URL/);
  });

  it('refuses log: in production, saying why', () => {
    expect(refusal({ NODE_ENV: 'production', JWT_SECRET: PRODUCTION_SECRET, MAIL_URL: 'log:' }).message).toBe(
      'MAIL_URL=log: writes every mail, its link included, to the log: it is refused when NODE_ENV=production',
    );
  });

  it('reads an smtp:// server (STARTTLS when offered) with its sender and front end, in production too', () => {
    for (const env of [SMTP, { ...SMTP, NODE_ENV: 'production', JWT_SECRET: PRODUCTION_SECRET }]) {
      expect(readConfig(env).mail).toStrictEqual({
        transport: { kind: 'smtp', secure: false, starttls: 'required', host: 'mail.example.com', port: 2525 },
        from: 'Example <no-reply@example.com>',
        appUrl: 'https://app.example.com',
      });
    }
  });

  it('reads smtps:// as TLS from the start, the login URL-decoded, and the default ports 587 and 465', () => {
    expect(readConfig({ ...SMTP, MAIL_URL: 'smtps://apikey:p%40ss%3Aword@smtp.example.com' }).mail?.transport).toStrictEqual({
      kind: 'smtp',
      secure: true,
      starttls: 'required',
      host: 'smtp.example.com',
      port: 465,
      auth: { user: 'apikey', pass: 'p@ss:word' },
    });
    expect(readConfig({ ...SMTP, MAIL_URL: 'smtp://127.0.0.1' }).mail?.transport).toMatchObject({ secure: false, host: '127.0.0.1', port: 587 });
    expect(readConfig({ ...SMTP, MAIL_URL: 'smtp://[::1]:25/' }).mail?.transport).toMatchObject({ host: '::1', port: 25 });
  });

  it.each([
    ['MAIL_FROM', 'MAIL_FROM must be set when MAIL_URL is an SMTP server: it is the sender of every mail'],
    ['APP_URL', 'APP_URL must be set when MAIL_URL is an SMTP server: the links in mail point to it'],
  ])('requires %s with SMTP', (name, message) => {
    expect(refusal({ ...SMTP, [name]: undefined }).message).toBe(message);
    expect(refusal({ ...SMTP, [name]: '' }).message).toBe(message);
  });

  it('requires STARTTLS for smtp:// to any host but a loopback one, unless MAIL_URL says ?starttls=optional, which warns', () => {
    const starttls = (MAIL_URL: string) => readConfig({ ...SMTP, MAIL_URL }).mail?.transport;
    for (const host of ['mail.example.com', '10.0.0.5', '[2001:db8::25]', '128.0.0.1', 'localhost.example.com']) {
      expect(starttls(`smtp://${host}:25`)).toMatchObject({ starttls: 'required' });
    }
    for (const host of ['127.0.0.1', '127.10.0.3', 'localhost', 'LOCALHOST.', 'mail.localhost', '[::1]', '[0:0:0:0:0:0:0:1]']) {
      expect(starttls(`smtp://${host}:25`)).toMatchObject({ starttls: 'optional' });
    }
    expect(starttls('smtp://relay.internal:25?starttls=optional')).toMatchObject({ host: 'relay.internal', starttls: 'optional' });
    expect(starttls('smtp://127.0.0.1:25?starttls=required')).toMatchObject({ starttls: 'required' });
    expect(readConfig({ ...SMTP, MAIL_URL: 'smtp://relay.internal:25?starttls=optional' }).warnings).toContainEqual(expect.stringMatching(/^MAIL_URL has \?starttls=optional: mail .* travels in clear/));
    expect(readConfig({ ...SMTP, MAIL_URL: 'smtp://127.0.0.1:25?starttls=optional' }).warnings.filter((line) => line.startsWith('MAIL_URL'))).toEqual([]);
    expect(readConfig({ ...SMTP, MAIL_URL: 'smtp://relay.internal:25' }).warnings.filter((line) => line.startsWith('MAIL_URL'))).toEqual([]);
  });

  it.each([
    'http://mail.example.com',
    'smtp:',
    'smtp://',
    'mail.example.com:25',
    'SMTP-server',
    'smtp://host/path',
    'smtp://host?pool=true',
    'smtp://host?starttls=off',
    'smtp://host?starttls=optional&pool=true',
    'smtp://host?starttls=optional&starttls=required',
    'smtps://host?starttls=optional',
    'smtp://host#x',
    'log',
    'log:x',
  ])('refuses MAIL_URL %j with the forms it takes', (MAIL_URL) => {
    expect(refusal({ ...SMTP, MAIL_URL }).message).toMatch(/^MAIL_URL must be smtp:\/\/\[user:password@\]host\[:port\]\[\?starttls=optional\], smtps:\/\/.* or log:/);
  });

  it('never repeats a refused MAIL_URL, which may hold a password', () => {
    const { message } = refusal({ ...SMTP, MAIL_URL: 'smtp://user:hunter2@host/path' });
    expect(message).not.toContain('hunter2');
  });

  it.each(['https://app.example.com/', 'https://app.example.com/account//', 'http://localhost:5173'])('takes APP_URL %j without its trailing slashes', (APP_URL) => {
    expect(readConfig({ ...SMTP, APP_URL }).mail?.appUrl).toBe(APP_URL.replace(/\/+$/, ''));
  });

  it.each(['app.example.com', 'ftp://app.example.com', 'https://app.example.com/?x=1', 'https://app.example.com/#top', 'https://user:pw@app.example.com', 'javascript:alert(1)'])(
    'refuses APP_URL %j',
    (APP_URL) => {
      expect(refusal({ ...SMTP, APP_URL }).message).toMatch(/^APP_URL must be an http:\/\/ or https:\/\/ URL/);
    },
  );

  it.each(['no-reply@example.com', 'Example <no-reply@example.com>', '"Example, Inc." <a.b+c@mail.example.com>'])('takes MAIL_FROM %j', (MAIL_FROM) => {
    expect(readConfig({ ...SMTP, MAIL_FROM }).mail?.from).toBe(MAIL_FROM);
  });

  it.each(['example.com', 'Example', 'a@b, c@d', 'Example <no-reply@example.com>\r\nBcc: x@y.z', '<a@b> <c@d>', 'x <a b@c>'])('refuses MAIL_FROM %j', (MAIL_FROM) => {
    expect(refusal({ ...SMTP, MAIL_FROM }).message).toMatch(/^MAIL_FROM must be an address/);
  });
});

describe('mail links, limits and budgets', () => {
  it('default to links of 30 minutes (reset) and 24 hours (verification), and 3, 30 and 3 requests an hour', () => {
    const config = readConfig({});
    expect(config.mailLinks).toStrictEqual({ passwordResetTtlSeconds: 1800, emailVerifyTtlSeconds: 86_400, passwordResetLinksKept: DEFAULT_MAIL_RULES.passwordResetLinksKept });
    expect(config.limits.passwordResetsPerEmail).toStrictEqual({ max: 3, windowSeconds: 3600 });
    expect(config.limits.passwordResetsPerAddress).toStrictEqual({ max: 30, windowSeconds: 3600 });
    expect(config.limits.verificationMailsPerAccount).toStrictEqual({ max: 3, windowSeconds: 3600 });
  });

  it('default to 10 resets per e-mail from every client, 10 mails per recipient, and 3 e-mail changes per account and 30 per client address, an hour each', () => {
    expect(readConfig({}).mailBudgets).toStrictEqual({
      passwordResetsPerEmailTotal: { max: 10, windowSeconds: 3600 },
      mailsPerRecipient: { max: 10, windowSeconds: 3600 },
      linkMailsPerRecipient: { max: 10 - MAIL_NOTICE_RESERVE, windowSeconds: 3600 },
      emailChangesPerAccount: { max: 3, windowSeconds: 3600 },
      emailChangesPerAddress: { max: 30, windowSeconds: 3600 },
    });
    const set = readConfig({ PASSWORD_RESET_MAX_PER_EMAIL_TOTAL: '20', MAIL_MAX_PER_RECIPIENT: '0', EMAIL_CHANGE_MAX_PER_ACCOUNT: '5', EMAIL_CHANGE_MAX_PER_ADDRESS: '50' }).mailBudgets;
    expect([set.passwordResetsPerEmailTotal.max, set.mailsPerRecipient.max, set.emailChangesPerAccount.max, set.emailChangesPerAddress.max]).toEqual([20, 0, 5, 50]);
    expect(set.linkMailsPerRecipient.max).toBe(0);
    expect(refusal({ MAIL_MAX_PER_RECIPIENT: 'ten' }).message).toBe('MAIL_MAX_PER_RECIPIENT must be a whole number');
  });

  it(`keeps the last ${MAIL_NOTICE_RESERVE} mails of a recipient's budget for the notices, and refuses a budget that would leave links none`, () => {
    expect(MAIL_NOTICE_RESERVE).toBe(2);
    expect(readConfig({ MAIL_MAX_PER_RECIPIENT: '3' }).mailBudgets.linkMailsPerRecipient).toStrictEqual({ max: 1, windowSeconds: 3600 });
    for (const max of ['1', '2']) {
      expect(refusal({ MAIL_MAX_PER_RECIPIENT: max }).message).toBe(
        'MAIL_MAX_PER_RECIPIENT must be 0 (off) or more than 2: the last 2 mails of each hour are kept for the notices',
      );
    }
  });

  it('keeps as many reset links per account as can be asked for one e-mail while a link lives, in the hourly windows it can span', () => {
    const kept = (env: Record<string, string>) => readConfig(env).mailLinks.passwordResetLinksKept;
    expect(kept({})).toBe(20);
    expect(kept({ PASSWORD_RESET_MAX_PER_EMAIL_TOTAL: '4' })).toBe(8);
    expect(kept({ PASSWORD_RESET_TTL_SECONDS: '3600' })).toBe(20);
    expect(kept({ PASSWORD_RESET_TTL_SECONDS: '3601' })).toBe(30);
    expect(kept({ PASSWORD_RESET_TTL_SECONDS: '86400' })).toBe(250);
    // With the cap off, the link mails one mailbox may be sent bound them; with both off, a fixed number.
    expect(kept({ PASSWORD_RESET_MAX_PER_EMAIL_TOTAL: '0', MAIL_MAX_PER_RECIPIENT: '5' })).toBe(6);
    expect(kept({ PASSWORD_RESET_MAX_PER_EMAIL_TOTAL: '0', MAIL_MAX_PER_RECIPIENT: '0' })).toBe(RESET_LINKS_KEPT_WITHOUT_LIMITS);
  });

  it('reads each, a limit of 0 turning it off', () => {
    const config = readConfig({
      PASSWORD_RESET_TTL_SECONDS: '600',
      EMAIL_VERIFY_TTL_SECONDS: '3600',
      PASSWORD_RESET_MAX_PER_EMAIL: '0',
      PASSWORD_RESET_MAX_PER_ADDRESS: '100',
      EMAIL_VERIFY_MAX_PER_ACCOUNT: '5',
    });
    expect(config.mailLinks).toStrictEqual({ passwordResetTtlSeconds: 600, emailVerifyTtlSeconds: 3600, passwordResetLinksKept: 20 });
    expect([config.limits.passwordResetsPerEmail.max, config.limits.passwordResetsPerAddress.max, config.limits.verificationMailsPerAccount.max]).toEqual([0, 100, 5]);
  });

  it.each([
    ['PASSWORD_RESET_TTL_SECONDS', '59', 'PASSWORD_RESET_TTL_SECONDS must be at least 60'],
    ['PASSWORD_RESET_TTL_SECONDS', '86401', 'PASSWORD_RESET_TTL_SECONDS must be at most 86400'],
    ['EMAIL_VERIFY_TTL_SECONDS', '1d', 'EMAIL_VERIFY_TTL_SECONDS must be a whole number'],
    ['PASSWORD_RESET_MAX_PER_EMAIL', '-1', 'PASSWORD_RESET_MAX_PER_EMAIL must be a whole number'],
  ])('refuses %s=%j with one line naming it', (name, value, message) => {
    expect(refusal({ [name]: value }).message).toBe(message);
  });
});

describe('docs/configuration.md', () => {
  it('has one row for every setting the configuration reads, and none for a setting it does not', () => {
    const doc = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
    const documented = [...doc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]);
    expect([...documented].sort()).toStrictEqual([...SETTING_NAMES].sort());
  });
});
