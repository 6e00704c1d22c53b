// A round-robin cluster for cluster-handoffs.test.ts, with one worker. A first connection makes
// the worker wedge while serving it (as a corrupt database reply does), so a second one is
// handed to a worker that never reads the handoff; the primary then kills the worker and prints
// `closed` once the second connection is closed, or `open` if it still is a second later. With
// `fixed`, the primary applies closeUnansweredHandoffs.
import cluster from 'node:cluster';
import { connect, createServer, type AddressInfo } from 'node:net';
import { closeUnansweredHandoffs } from '../cluster-handoffs.js';

if (cluster.isPrimary) {
  cluster.schedulingPolicy = cluster.SCHED_RR;
  const worker = cluster.fork();
  if (process.argv[2] === 'fixed') closeUnansweredHandoffs(worker);
  const quiet = (socket: ReturnType<typeof connect>) => socket.on('error', () => undefined);
  let port = 0;
  worker.on('message', (message: { port?: number; wedging?: boolean }) => {
    if (message.port !== undefined) quiet(connect((port = message.port), '127.0.0.1'));
    else if (message.wedging === true) {
      const second = quiet(connect(port, '127.0.0.1'));
      second.once('close', () => {
        console.log('closed');
        process.exit(0);
      });
      second.once('connect', () => {
        worker.process.kill('SIGKILL');
        worker.once('exit', () =>
          setTimeout(() => {
            console.log('open');
            process.exit(0);
          }, 1000),
        );
      });
    }
  });
} else {
  const server = createServer(() => {
    process.send?.({ wedging: true });
    for (;;);
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
}
