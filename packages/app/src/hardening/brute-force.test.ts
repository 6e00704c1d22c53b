import { describeBruteForce } from '../test-support/hardening.brute-force.js';
import { memoryStores } from '../test-support/hardening.harness.js';

describeBruteForce(memoryStores);
