// The driver defect docs/mongodb.md describes ("A reply the driver loops on"), checked against the
// installed driver: a reply whose body claims a length of -1 holds the client's thread in a loop
// that allocates without end. Once a driver release fixes it, this test fails: then say so in
// docs/mongodb.md and turn it round. The client runs in a worker thread with a small heap, so
// that its loop ends in the worker's own out-of-memory error, not in this process's.
import { createServer, type AddressInfo, type Server } from 'node:net';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** What a client thread came to: the driver's answer to `connect`, or how the thread ended without one. */
type Outcome = { answered: string } | { ended: string };

const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { MongoClient } = require(workerData.mongodb);
const client = new MongoClient(workerData.url, { serverSelectionTimeoutMS: 500 });
client.connect().then(
  () => parentPort.postMessage('connected'),
  (error) => parentPort.postMessage(error.name),
);
`;

/** Answers every message with an OP_MSG whose one body section says it is -1 bytes long. */
function negativeLengthServer(): Server {
  return createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (request: Buffer) => {
      const reply = Buffer.alloc(26);
      reply.writeInt32LE(reply.length, 0); // messageLength
      reply.writeInt32LE(1, 4); // requestID
      reply.writeInt32LE(request.readInt32LE(4), 8); // responseTo
      reply.writeInt32LE(2013, 12); // opCode: OP_MSG
      reply.writeUInt32LE(0, 16); // flagBits
      reply.writeUInt8(0, 20); // section kind 0: the body
      reply.writeInt32LE(-1, 21); // the body's BSON length
      socket.write(reply);
    });
  });
}

describe('the mongodb driver on a reply whose body claims a length of -1', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = negativeLengthServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `mongodb://127.0.0.1:${(server.address() as AddressInfo).port}/?directConnection=true`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('never answers: its thread loops, allocating, until its heap runs out', async () => {
    const mongodb = createRequire(import.meta.url).resolve('mongodb');
    const client = new Worker(CLIENT, { eval: true, workerData: { mongodb, url }, execArgv: [], resourceLimits: { maxOldGenerationSizeMb: 32 } });
    const outcome = await new Promise<Outcome>((resolve) => {
      client.once('message', (answer: string) => resolve({ answered: answer }));
      client.once('error', (error: NodeJS.ErrnoException) => resolve({ ended: error.code ?? error.message }));
      // A driver that answers does so within its 500 ms selection timeout.
      setTimeout(() => resolve({ ended: 'no answer within 10 s' }), 10_000).unref();
    });
    await client.terminate();
    // A fixed driver answers { answered: 'MongoServerSelectionError' } instead.
    expect(outcome).toEqual({ ended: 'ERR_WORKER_OUT_OF_MEMORY' });
  }, 15_000);
});
