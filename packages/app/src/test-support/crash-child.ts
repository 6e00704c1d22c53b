// A child process for process-guards.test.ts: inkwell's real logger, its fatal-error handlers and
// its event-loop watchdog (a stall is more than 1 s without a beat; beats every 100 ms), then what argv says:
// `throw` an uncaught exception, `reject` a promise nobody handles (both carrying a database URL
// with its password), `stall` the event loop for 5 s, `pause` it for 200 ms and exit 0, or `stop`
// the whole process (SIGSTOP) in the middle of 500 ms of work, until the test lets it go on
// (SIGCONT), then log and exit 0 1.5 s later, time enough for the watchdog to act if it took the
// stop for a stall.
import { watchEventLoop } from '../event-loop-watchdog.js';
import { exitOnUncaughtErrors } from '../fatal-errors.js';
import { createLogger } from '../logger.js';

const logger = createLogger('info', undefined, { pid: process.pid });
exitOnUncaughtErrors(logger);
watchEventLoop(logger, { stallMs: 1000, beatMs: 100 });
logger.info('watching');

const block = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end);
};
const secretError = () => new Error('cannot reach mongodb://admin:hunter2-secret@db.example.com:27017');

// After a few beats, so that the watchdog has seen the loop run.
setTimeout(() => {
  switch (process.argv[2]) {
    case 'throw':
      throw secretError();
    case 'reject':
      void Promise.reject(secretError());
      break;
    case 'stall':
      block(5000);
      logger.info('the loop ran again');
      break;
    case 'pause':
      block(200);
      logger.info('the loop ran again');
      setTimeout(() => process.exit(0), 500);
      break;
    case 'stop':
      // Stopped with its loop busy, so that it goes on working, not beating, when it is let go on.
      block(200);
      process.kill(process.pid, 'SIGSTOP');
      block(300);
      logger.info('the loop ran again');
      setTimeout(() => process.exit(0), 1500);
      break;
  }
}, 300);
