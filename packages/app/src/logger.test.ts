import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Secrets } from './redact-url-passwords.js';
import { createLogger, plainLineLogger } from './logger.js';
import { Writable } from 'node:stream';

const script = fileURLToPath(new URL('./test-support/log-then-exit.ts', import.meta.url));
const nodeArgs = ['--conditions=source', '--import', 'tsx', script];

/** Runs `file` and collects its stdout, read at once or, with `readAfterMs`, only after that long. */
function run(file: string, args: readonly string[], readAfterMs = 0): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  if (readAfterMs > 0) {
    child.stdout.pause();
    setTimeout(() => child.stdout.resume(), readAfterMs);
  }
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

/** The `i` of every line, checking that each line is whole. */
function indexes(stdout: string): number[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => {
      const { i, filler } = JSON.parse(line) as { i: number; filler: string };
      expect(filler.endsWith(' é ✓ 😀')).toBe(true);
      return i;
    });
}

const upTo = (count: number) => Array.from({ length: count }, (_, i) => i);

describe('the stdout logger (batched writes)', () => {
  // 20 000 lines of ~190 bytes: far more than a pipe holds, so most are still waiting for stdout
  // when the process ends. None may be lost, and their order must hold.
  const COUNT = 20_000;

  it('writes every line logged before process.exit, in order', async () => {
    const { code, stdout } = await run(process.execPath, [...nodeArgs, String(COUNT), 'exit']);
    expect(code).toBe(0);
    expect(indexes(stdout)).toEqual(upTo(COUNT));
  });

  it('writes every line logged before an uncaught exception', async () => {
    const { code, stdout } = await run(process.execPath, [...nodeArgs, String(COUNT), 'throw']);
    expect(code).toBe(1);
    expect(indexes(stdout)).toEqual(upTo(COUNT));
  });

  it('writes every line when stdout is a full pipe as the process ends', async () => {
    // 400 lines (75 KB) into a 64 KB pipe whose reader starts a second later, then 300 ms idle
    // and exit. The asynchronous writer this replaced lost the 21 lines of the write still
    // waiting for room in the pipe: the process ended under it.
    const pipeline = `"$0" "$@" | { sleep 1; cat; }`;
    const { code, stdout } = await run('sh', ['-c', pipeline, process.execPath, ...nodeArgs, '400', 'exit', 'settle']);
    expect(code).toBe(0);
    expect(indexes(stdout)).toEqual(upTo(400));
  });

  it('has written every line when logger.flush calls back', async () => {
    // 5 lines: far less than a batch, so all of them are still waiting when flush is called.
    const { code, stdout } = await run(process.execPath, [...nodeArgs, '5', 'exit', 'flush']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines.at(-1)).toBe('flushed');
    expect(indexes(lines.slice(0, -1).join('\n'))).toEqual(upTo(5));
  });

  it('keeps every line of two processes that share stdout and end while it is full', async () => {
    // As the workers of WEB_CONCURRENCY share their primary's stdout and stop together.
    const { code, stdout } = await run(process.execPath, [...nodeArgs, String(COUNT), 'exit', 'shared'], 500);
    expect(code).toBe(0);
    const seen = indexes(stdout);
    expect(seen).toHaveLength(2 * COUNT);
    expect(seen.filter((i) => i === COUNT - 1)).toHaveLength(2);
  });
});

/** A real inkwell logger writing into an array, one parsed line per entry. */
function capturedLogger(fields: Readonly<Record<string, string | number>> = {}, secrets?: Secrets) {
  const lines: Array<Record<string, unknown>> = [];
  const texts: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      texts.push(chunk.toString('utf8'));
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', destination, fields, secrets), lines, texts };
}

describe('createLogger', () => {
  it('redacts every secret field, at the top level and one level down, and a headers object\'s credentials', () => {
    const { logger, lines } = capturedLogger();
    const secrets = { password: 'p1', currentPassword: 'p2', newPassword: 'p3', passwordHash: '$2b$12$h', token: 'eyJ.t', authorization: 'Bearer a' };
    logger.info({ ...secrets, body: { ...secrets }, headers: { authorization: 'Bearer b' }, title: 'kept' }, 'line');
    const redacted = Object.fromEntries(Object.keys(secrets).map((name) => [name, '[redacted]']));
    expect(lines[0]).toMatchObject({ ...redacted, body: redacted, headers: { authorization: '[redacted]' }, title: 'kept' });
    expect(JSON.stringify(lines[0])).not.toMatch(/p1|p2|p3|\$2b\$|eyJ\.t|Bearer/);
  });
});

describe('createLogger, given the secrets', () => {
  it('leaves none of them in any line, however they are written, and every line valid JSON', () => {
    const dbUrl = 'mongodb://inkwell:Quote"S3cret with spaces@db.example.net:27017/?authSource=admin';
    const signing = 'a-signing-secret-of-more-than-32-bytes';
    const { logger, lines, texts } = capturedLogger({}, { urls: [dbUrl], values: [signing] });
    logger.fatal(`inkwell: could not start: cannot reach MongoDB at ${dbUrl}`);
    logger.warn({ err: new Error(`connect failed (${dbUrl})`), reason: 'Quote"S3cret with spaces' }, 'store: unreachable');
    logger.error({ detail: { nested: [signing] } }, `signed with ${signing}`);
    expect(texts.join('')).not.toMatch(/S3cret|with spaces|a-signing-secret/);
    expect(lines).toHaveLength(3);
    expect(lines[0]?.msg).toBe('inkwell: could not start: cannot reach MongoDB at mongodb://inkwell:***@db.example.net:27017/?authSource=admin');
  });
});

describe('plainLineLogger', () => {
  it('writes the access line exactly as the full logger would', () => {
    const full = capturedLogger();
    const fast = capturedLogger();
    const line = { requestId: 'r-1', method: 'GET', path: '/posts/1', status: 200, durationMs: 0.42 };
    full.logger.info(line, 'request');
    plainLineLogger(fast.logger).info(line, 'request');
    const withoutTime = (text: string) => text.replace(/"time":\d+/, '"time":0');
    expect(fast.texts.map(withoutTime)).toStrictEqual(full.texts.map(withoutTime));
    expect(fast.lines[0]).toMatchObject({ ...line, level: 30, service: 'inkwell', msg: 'request' });
  });

  it('writes a cluster process’s pid where the full logger does', () => {
    const full = capturedLogger({ pid: 4242 });
    const fast = capturedLogger({ pid: 4242 });
    const line = { requestId: 'r-1', status: 200 };
    full.logger.info(line, 'request');
    plainLineLogger(fast.logger).info(line, 'request');
    const withoutTime = (text: string) => text.replace(/"time":\d+/, '"time":0');
    expect(fast.texts.map(withoutTime)).toStrictEqual(full.texts.map(withoutTime));
    expect(fast.texts[0]).toContain('"service":"inkwell","pid":4242,"requestId":"r-1"');
  });

  it('writes every string, number and boolean as the full logger would', () => {
    const withoutTime = (text: string) => text.replace(/"time":\d+/, '"time":0');
    const odd = [
      'quote " and \\ backslash',
      'tab\tnew\nline\u0000nul\u001f',
      'lone \ud800 surrogate and a pair 😀',
      'naïve ✓ \u2028',
      '',
    ];
    for (const [i, text] of odd.entries()) {
      const full = capturedLogger();
      const fast = capturedLogger();
      const line = { text, [`field ${i} "quoted"`]: text, nan: Number.NaN, infinite: -Infinity, fraction: 0.1 + 0.2, big: 1e21, yes: true, no: false };
      full.logger.info(line, text);
      plainLineLogger(fast.logger).info(line, text);
      expect(withoutTime(fast.texts[0] as string)).toBe(withoutTime(full.texts[0] as string));
    }
  });

  it('writes a line with anything but plain fields through the full logger, with all its redaction', () => {
    const full = capturedLogger();
    const fast = capturedLogger();
    const line = { requestId: 'r-1', aborted: true, nested: { password: 'hunter2' }, missing: undefined, text: 'quote " and \\ and \u2028' };
    full.logger.info(line, 'request');
    plainLineLogger(fast.logger).info(line, 'request');
    plainLineLogger(fast.logger).info({ ...line, nested: undefined }, 'request');
    const withoutTime = (text: string) => text.replace(/"time":\d+/, '"time":0');
    expect(withoutTime(fast.texts[0] as string)).toBe(withoutTime(full.texts[0] as string));
    expect(fast.lines[0]).toMatchObject({ requestId: 'r-1', aborted: true, nested: { password: '[redacted]' } });
    expect(withoutTime(fast.texts[1] as string)).toBe(withoutTime((full.texts[0] as string).replace(',"nested":{"password":"[redacted]"}', '')));
  });

  it('still redacts the secret names at the top level, and URL passwords anywhere', () => {
    const { logger, lines } = capturedLogger();
    plainLineLogger(logger).info(
      { password: 'hunter2', token: 'eyJ.x.y', authorization: 'Bearer abc', path: '/x/mongodb://u:pw@h' },
      'request',
    );
    expect(lines[0]).toMatchObject({ password: '[redacted]', token: '[redacted]', authorization: '[redacted]' });
    expect(JSON.stringify(lines[0])).not.toMatch(/hunter2|eyJ\.x\.y|Bearer abc|:pw@/);
  });

  it('keeps the level of the logger it came from', () => {
    const { lines } = capturedLogger();
    const quiet = createLogger('warn', new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) }));
    plainLineLogger(quiet).info({ path: '/' }, 'request');
    expect(lines).toEqual([]);
  });

  it('passes a logger that is not pino through unchanged', () => {
    const plain = { info: () => undefined, warn: () => undefined, error: () => undefined };
    expect(plainLineLogger(plain)).toBe(plain);
  });
});
