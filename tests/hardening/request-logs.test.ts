// Runs the log leak check (log-leaks.suite.ts) on a server process over the in-memory store.
import { describe } from 'vitest';
import { itLeaksNothingIntoTheLogs } from './log-leaks.suite.js';

describe('the log stream of a real process (memory store)', () => {
  itLeaksNothingIntoTheLogs(() => 'memory');
});
