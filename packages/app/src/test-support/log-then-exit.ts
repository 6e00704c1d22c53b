// A child process for logger.test.ts: logs `count` lines through inkwell's real stdout logger,
// then ends at once, with `process.exit` or with an uncaught exception, as argv says. A third
// argument changes the setting: `shared` first starts a copy of itself on the same stdout, as
// cluster workers share their primary's, and both log at once; `settle` waits 300 ms before the
// end, so that whatever the writer could hand to stdout in the background has been; `flush`
// calls logger.flush and, once it calls back, writes `flushed` straight to stdout.
import { spawn } from 'node:child_process';
import { writeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from '../logger.js';

const [count, ending, setting] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
const copy =
  setting === 'shared'
    ? spawn(process.execPath, [...process.execArgv, process.argv[1] as string, String(count), 'exit', 'copy'], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      })
    : undefined;
const copyExited = copy && new Promise((resolve) => copy.on('exit', resolve));
const logger = createLogger('info');
// Both start logging together: the copy says when it is ready.
if (copy) await new Promise((resolve) => copy.once('message', resolve));
process.send?.('ready');
// Multi-byte text on every line: bytes and characters differ, and a line cut mid-character would show.
for (let i = 0; i < count; i++) logger.info({ i, filler: `${'x'.repeat(90)} é ✓ 😀` }, 'line');
if (copyExited) await copyExited;
if (setting === 'settle') await sleep(300);
if (setting === 'flush') {
  await new Promise<void>((resolve, reject) => logger.flush((error) => (error ? reject(error) : resolve())));
  writeSync(1, 'flushed\n');
}
if (ending === 'throw') throw new Error('crash right after logging');
process.exit(0);
