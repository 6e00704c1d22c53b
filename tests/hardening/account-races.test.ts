// Runs the account race reproductions (account-races.suite.ts) on servers in this process over the in-memory store.
import { afterAll } from 'vitest';
import { memoryStores } from '../support/stores.js';
import { describeAccountRaceReproductions, outcomes } from './account-races.suite.js';

describeAccountRaceReproductions(memoryStores);
afterAll(() => console.log(`[account races] ${JSON.stringify(outcomes)}`));
