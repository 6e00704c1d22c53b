// A client that holds as many connections to a server as it is told, from an address of its own,
// and opens a new one for every one the server closes, as a client trying to keep others out
// would (support/flood.ts starts it in a process of its own, so its work does not slow the test's
// other client). Its connections come in three kinds, in turn: idle (connected, nothing sent),
// slow headers (a request line and headers that never end, a byte a second), and a body half
// sent (complete headers of a POST whose Content-Length is never reached). It reads its settings
// as JSON from its argument, writes one JSON line once all its connections are open (`held`),
// and one with its counts when it gets SIGTERM, then exits.
import { connect, type Socket } from 'node:net';

interface Settings {
  readonly port: number;
  readonly localAddress: string;
  readonly sockets: number;
}

const { port, localAddress, sockets } = JSON.parse(process.argv[2] ?? '{}') as Settings;
const KINDS = ['idle', 'slow headers', 'half a body'] as const;
type Kind = (typeof KINDS)[number];

const open = new Set<Socket>();
const slow = new Set<Socket>();
let opened = 0;
let closedByServer = 0;
let stopping = false;
let announced = false;

function hold(kind: Kind): void {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  socket.on('error', () => undefined);
  socket.once('connect', () => {
    opened++;
    open.add(socket);
    if (kind === 'slow headers') {
      socket.write('GET /health/live HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
      slow.add(socket);
    } else if (kind === 'half a body') {
      socket.write('POST /posts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title":"');
    }
    if (!announced && open.size >= sockets) {
      announced = true;
      process.stdout.write(`${JSON.stringify({ held: open.size })}\n`);
    }
  });
  socket.once('close', () => {
    if (open.delete(socket)) closedByServer += stopping ? 0 : 1;
    slow.delete(socket);
    if (!stopping) setImmediate(() => hold(kind));
  });
}

for (let i = 0; i < sockets; i++) hold(KINDS[i % KINDS.length] as Kind);
const drip = setInterval(() => {
  for (const socket of slow) socket.write('a');
}, 1_000);

process.once('SIGTERM', () => {
  stopping = true;
  clearInterval(drip);
  process.stdout.write(`${JSON.stringify({ opened, closedByServer, open: open.size })}\n`);
  for (const socket of open) socket.destroy();
  process.exit(0);
});
