import { describe, expect, it } from 'vitest';
import { redactUrlPasswords } from './redact-url-passwords.js';

describe('redactUrlPasswords', () => {
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
  ])('redacts the URL %s as %s', (url, expected) => {
    expect(redactUrlPasswords(url)).toBe(expected);
  });

  it.each([
    ['a driver message', 'MongoServerSelectionError: connect ECONNREFUSED (mongodb://admin:hunter2@10.0.0.5:27017/?authSource=admin)', 'MongoServerSelectionError: connect ECONNREFUSED (mongodb://admin:***@10.0.0.5:27017/?authSource=admin)'],
    ['a JSON log line', '{"level":50,"msg":"cannot reach mongodb://u:hunter2@h/db","email":"a@example.com"}', '{"level":50,"msg":"cannot reach mongodb://u:***@h/db","email":"a@example.com"}'],
    ['two URLs in one line', 'from redis://:pw1@r:6379 to mongodb://u:pw2@m', 'from redis://:***@r:6379 to mongodb://u:***@m'],
    ['a line with no URL', '{"msg":"request","path":"/posts","user":"a@b"}', '{"msg":"request","path":"/posts","user":"a@b"}'],
  ])('redacts every URL password in %s and nothing else', (_label, text, expected) => {
    expect(redactUrlPasswords(text)).toBe(expected);
  });

  it('never keeps the password, whatever the URL looks like', () => {
    for (const url of ['mongodb://u:hunter2@h', 'mongodb://u@x:hunter2@h/db', 'mongodb://u:hunter2@h:1/?appName=a@b', 'mongodb://u:hun/ter2@h']) {
      expect(redactUrlPasswords(url)).not.toMatch(/hunter2|hun\/ter2/);
    }
  });
});
