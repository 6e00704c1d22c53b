// A server process for bench/account-cost.ts: the inkwell built in the checkout named by the first
// argument, on the memory store, with a hasher that costs nothing, configured by the environment
// (PORT and HOST from the bench). Mail is on where that build has it (`log:`, into a silent logger).
import { fakePasswordHasher } from '@inkwell/domain/testing';
import { resolve } from 'node:path';
import type * as App from '@inkwell/app';

type App = typeof App;
const app = (await import(resolve(process.argv[2] ?? '.', 'packages/app/dist/index.js'))) as App;
const config = app.readConfig(process.env);
await app.startServer(config, app.createLogger('silent'), { overrides: { hasher: fakePasswordHasher() } });
