// A child process for logger.test.ts: logs `count` lines through inkwell's real stdout logger,
// then ends at once, with `process.exit` or with an uncaught exception, as argv says.
import { createLogger } from '../logger.js';

const [count, ending] = [Number(process.argv[2]), process.argv[3]];
const logger = createLogger('info');
// Multi-byte text on every line: bytes and characters differ, and a line cut mid-character would show.
for (let i = 0; i < count; i++) logger.info({ i, filler: `${'x'.repeat(90)} é ✓ 😀` }, 'line');
if (ending === 'throw') throw new Error('crash right after logging');
process.exit(0);
