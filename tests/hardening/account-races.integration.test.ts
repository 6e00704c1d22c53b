// Runs the account race reproductions (account-races.suite.ts) on servers in this process over MongoDB.
import { describeWithMongo } from '@inkwell/adapters-mongo/testing';
import { afterAll } from 'vitest';
import { mongoStores } from '../support/stores.js';
import { describeAccountRaceReproductions, outcomes } from './account-races.suite.js';

describeWithMongo('over MongoDB', (mongo) => describeAccountRaceReproductions(mongoStores(mongo)));
afterAll(() => console.log(`[account races] ${JSON.stringify(outcomes)}`));
