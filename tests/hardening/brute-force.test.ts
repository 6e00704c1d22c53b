import { describeBruteForce } from './brute-force.suite.js';
import { memoryStores } from '../support/stores.js';

describeBruteForce(memoryStores);
