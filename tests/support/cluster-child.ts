// main.ts's process with a cluster restart policy of the test's own, as JSON in
// INKWELL_TEST_RESTART_POLICY (startInkwell's `{ in: 'child', restartPolicy }`): production's
// delays (1 s doubling to 30 s) would make a test of many deaths last minutes. node:cluster forks
// this same file, so the workers run it too; only the primary uses the policy.
import { runProcess, type RestartPolicy } from '@inkwell/app';

await runProcess({ restartPolicy: JSON.parse(process.env.INKWELL_TEST_RESTART_POLICY ?? 'null') as RestartPolicy });
