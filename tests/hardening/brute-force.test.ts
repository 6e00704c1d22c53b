// Runs the brute-force limits suite (brute-force.suite.ts) on a server in this process over the in-memory store.
import { describeBruteForce } from './brute-force.suite.js';
import { memoryStores } from '../support/stores.js';

describeBruteForce(memoryStores);
