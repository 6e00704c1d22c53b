import { describe, expect, it } from 'vitest';
import { clusterRefusal } from './cluster.js';
import { readConfig } from './config.js';

describe('clusterRefusal', () => {
  it('refuses more than one process on the memory store, naming the variable and the way out', () => {
    const message = clusterRefusal(readConfig({ DB_URL: 'memory:', WEB_CONCURRENCY: '2' }));
    expect(message).toMatch(/WEB_CONCURRENCY=2/);
    expect(message).toMatch(/MongoDB/);
    expect(message).toMatch(/own data/);
  });

  it.each([
    { DB_URL: 'memory:' },
    { DB_URL: 'memory:', WEB_CONCURRENCY: '1' },
    { DB_URL: 'mongodb://127.0.0.1:27017', WEB_CONCURRENCY: '4' },
  ])('accepts %j', (env) => {
    expect(clusterRefusal(readConfig(env))).toBeNull();
  });
});
