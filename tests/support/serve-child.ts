// A server process for a test that needs one of its own with other timeouts than production's
// (startInkwell's `{ in: 'child', timeouts }`): main.ts's single-process start-up, with the
// timeouts the test passes as JSON in INKWELL_TEST_TIMEOUTS.
import { createLogger, readConfig, startServer } from '@inkwell/app';

const config = readConfig(process.env);
await startServer(config, createLogger(config.logLevel), { timeouts: JSON.parse(process.env.INKWELL_TEST_TIMEOUTS ?? '{}') as object });
