// main.ts's process with timings of the test's own, as JSON in environment variables (startInkwell's
// `{ in: 'child', restartPolicy, watchdog }`): a cluster restart policy (INKWELL_TEST_RESTART_POLICY;
// production's delays, 1 s doubling to 30 s, would make a test of many deaths last minutes) and
// the event-loop watchdog's (INKWELL_TEST_WATCHDOG; production's 10 s would make a test of a pause
// last a minute), and mail delivery's (INKWELL_TEST_DELIVERY; production's 25 s leases would make
// a test of a takeover last half a minute). node:cluster forks this same file, so the workers run it too.
import { runProcess, type DeliveryTiming, type RestartPolicy, type WatchdogTimings } from '@inkwell/app';

const fromJson = <T>(name: string): T | undefined => (process.env[name] === undefined ? undefined : (JSON.parse(process.env[name]) as T));

await runProcess({
  restartPolicy: fromJson<RestartPolicy>('INKWELL_TEST_RESTART_POLICY'),
  watchdog: fromJson<WatchdogTimings>('INKWELL_TEST_WATCHDOG'),
  delivery: fromJson<Partial<DeliveryTiming>>('INKWELL_TEST_DELIVERY'),
});
