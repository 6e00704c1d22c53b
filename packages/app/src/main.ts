import { nodeVersionRefusal } from './node-version.js';

// The process entry. The Node.js is checked before anything else loads, so that an older one
// gets one line saying so instead of a stack trace from whatever it first lacks; the rest is
// imported only then.
const refusal = nodeVersionRefusal(process.versions.node);
if (refusal !== null) {
  console.error(`inkwell: refusing to start: ${refusal}`);
  process.exit(1);
}
const { runProcess } = await import('./run-process.js');
await runProcess();
