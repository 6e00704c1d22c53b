import { MongoServerSelectionError } from 'mongodb';
import { describe, expect, it } from 'vitest';
import { answerTimeoutMs, connectMongo, openMongo } from './connect.js';

// Port 1 on the loopback is closed: connections are refused at once, so only the timeouts count.
const UNREACHABLE = 'mongodb://127.0.0.1:1';

async function timed(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const start = performance.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - start };
}

describe('connectMongo without a database', () => {
  it('rejects with the driver error within the given selection timeout', async () => {
    const { error, ms } = await timed(connectMongo({ url: UNREACHABLE, database: 'x', serverSelectionTimeoutMS: 300 }));
    expect(error).toBeInstanceOf(MongoServerSelectionError);
    expect(ms).toBeLessThan(1500);
  });

  it('gives up after about two seconds by default', async () => {
    const { error, ms } = await timed(connectMongo({ url: UNREACHABLE, database: 'x' }));
    expect(error).toBeInstanceOf(MongoServerSelectionError);
    expect(ms).toBeGreaterThan(1500);
    expect(ms).toBeLessThan(3500);
  });

  it('rejects a malformed URL', async () => {
    // The scheme check throws mongodb-connection-string-url's own MongoParseError, not the driver's class.
    await expect(connectMongo({ url: 'postgres://localhost', database: 'x' })).rejects.toMatchObject({
      name: 'MongoParseError',
    });
  });
});

describe('openMongo', () => {
  it('makes the client without connecting, and throws the driver error at once for a URL it cannot use', async () => {
    const connection = openMongo({ url: UNREACHABLE, database: 'x' });
    expect(connection.db.databaseName).toBe('x');
    // As long as a request waits for a silent database: the socket timeout.
    expect(answerTimeoutMs(connection.db)).toBe(10_000);
    await connection.close();
    for (const url of ['mongodb://user:pa:ss@127.0.0.1:1/', 'mongodb://127.0.0.1:1/?tls=maybe', 'mongodb://127.0.0.1:1/?unknownOption=1']) {
      expect(() => openMongo({ url, database: 'x' })).toThrow(expect.objectContaining({ name: 'MongoParseError' }) as Error);
    }
  });
});
