import { describe } from 'vitest';
import { itLeaksNothingIntoTheLogs } from '../test-support/hardening.log-leaks.js';

describe('the log stream of a real process (memory store)', () => {
  itLeaksNothingIntoTheLogs(() => ({ DB_URL: 'memory:' }));
});
