import { describe, expect, it } from 'vitest';
import { redactMongoUrl } from './redact-mongo-url.js';

describe('redactMongoUrl', () => {
  it.each([
    ['mongodb://127.0.0.1:27017', 'mongodb://127.0.0.1:27017'],
    ['mongodb://localhost/inkwell?retryWrites=true', 'mongodb://localhost/inkwell?retryWrites=true'],
    ['mongodb://user@localhost:27017/db', 'mongodb://user@localhost:27017/db'],
    ['mongodb://user:s3cret@localhost:27017/db', 'mongodb://user:***@localhost:27017/db'],
    ['mongodb+srv://user:s3cret@cluster0.example.net/db?w=majority', 'mongodb+srv://user:***@cluster0.example.net/db?w=majority'],
    ['MONGODB://user:s3cret@h', 'MONGODB://user:***@h'],
    ['mongodb://user:p%40ss%3Aword@h1:27017,h2:27018/db?replicaSet=rs0', 'mongodb://user:***@h1:27017,h2:27018/db?replicaSet=rs0'],
    ['mongodb://user:p@ss:w/rd@host/db', 'mongodb://user:***@host/db'],
    ['mongodb://user:@host', 'mongodb://user:***@host'],
    ['mongodb://h/?tls=true&tlsCertificateKeyFilePassword=k3y&proxyPassword=pr0xy', 'mongodb://h/?tls=true&tlsCertificateKeyFilePassword=***&proxyPassword=***'],
    ['memory:', 'memory:'],
    ['', ''],
  ])('%s', (url, expected) => {
    expect(redactMongoUrl(url)).toBe(expected);
  });

  it('never keeps the password, whatever the URL looks like', () => {
    for (const url of ['mongodb://u:hunter2@h', 'mongodb://u@x:hunter2@h/db', 'mongodb://u:hunter2@h:1/?appName=a@b']) {
      expect(redactMongoUrl(url)).not.toContain('hunter2');
    }
  });
});
