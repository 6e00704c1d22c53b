import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { accessLoggerFor } from './access-logger.js';
import { createLogger } from './logger.js';

/** A real inkwell logger writing into an array, one parsed line per entry. */
function capturedLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('info', destination), lines };
}

describe('accessLoggerFor', () => {
  it('writes the access line exactly as the full logger would', () => {
    const full = capturedLogger();
    const fast = capturedLogger();
    const line = { requestId: 'r-1', method: 'GET', path: '/posts/1', status: 200, durationMs: 0.42 };
    full.logger.info(line, 'request');
    accessLoggerFor(fast.logger).info(line, 'request');
    const withoutTime = ({ time: _time, ...rest }: Record<string, unknown>) => rest;
    expect(fast.lines.map(withoutTime)).toStrictEqual(full.lines.map(withoutTime));
    expect(fast.lines[0]).toMatchObject({ ...line, level: 30, service: 'inkwell', msg: 'request' });
  });

  it('still redacts the secret names at the top level, and URL passwords anywhere', () => {
    const { logger, lines } = capturedLogger();
    accessLoggerFor(logger).info(
      { password: 'hunter2', token: 'eyJ.x.y', authorization: 'Bearer abc', path: '/x/mongodb://u:pw@h' },
      'request',
    );
    expect(lines[0]).toMatchObject({ password: '[redacted]', token: '[redacted]', authorization: '[redacted]' });
    expect(JSON.stringify(lines[0])).not.toMatch(/hunter2|eyJ\.x\.y|Bearer abc|:pw@/);
  });

  it('keeps the level of the logger it came from', () => {
    const { lines } = capturedLogger();
    const quiet = createLogger('warn', new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(String(chunk)) as Record<string, unknown>), done()) }));
    accessLoggerFor(quiet).info({ path: '/' }, 'request');
    expect(lines).toEqual([]);
  });

  it('passes a logger that is not pino through unchanged', () => {
    const plain = { info: () => undefined, warn: () => undefined, error: () => undefined };
    expect(accessLoggerFor(plain)).toBe(plain);
  });
});
