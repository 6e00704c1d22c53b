import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/** How a proxy damages the database's replies: bytes `from` to `to` of each reply become `byte`. */
export interface ReplyCorruption {
  /** The first byte damaged, counted from the reply's first byte (its length) at 0. */
  readonly from: number;
  /** The last byte damaged (inclusive); a shorter reply is damaged to its end. */
  readonly to: number;
  /** What each of them becomes, 0 to 255. */
  readonly byte: number;
}

/**
 * A TCP proxy in front of a MongoDB server that a test can cut and restore, to play a database
 * outage, or make misbehave: withhold its replies, hold them back, or damage them, or keep a
 * client's requests from it.
 */
export interface MongoProxy {
  /** A connection string to the server through the proxy (a direct connection, so no discovery bypasses it). */
  readonly url: string;
  /** Drops every open connection and stops accepting new ones, as if the database went away. */
  goDown(): Promise<void>;
  /** Accepts connections again, on the same port. */
  comeBack(): Promise<void>;
  /** While true, every reply is dropped: the database takes requests and never answers. */
  stallReplies(stalled: boolean): void;
  /** From now on every reply (each wire-protocol message) is damaged as `corruption` says; null stops it. */
  corruptReplies(corruption: ReplyCorruption | null): void;
  /**
   * From now on the replies to queries and writes reach the client `ms` late, in order; 0 stops it.
   * The replies to the handshake (`hello`, `isMaster`) are not delayed: the driver's monitors and
   * new connections see a database that is up, and slow.
   */
  delayQueries(ms: number): void;
  /** Replies damaged so far. */
  readonly corruptedReplies: number;
  /**
   * From now on every request (each wire-protocol message from a client) for which `match` is
   * true is kept from the database and never answered, as if the client stopped right before it
   * reached the server; null stops it. Requests kept so far stay kept.
   */
  withholdRequests(match: ((message: Buffer) => boolean) | null): void;
  /** Requests withheld so far. */
  readonly withheldRequests: number;
  /** Stops the proxy for good. */
  close(): Promise<void>;
}

/**
 * Starts a proxy to the single-host MongoDB at `targetUrl` (credentials and options are kept).
 * Throws for URLs it cannot proxy (several hosts, `mongodb+srv`).
 */
export async function startMongoProxy(targetUrl: string): Promise<MongoProxy> {
  const target = new URL(targetUrl);
  if (target.protocol !== 'mongodb:') throw new Error('startMongoProxy needs a single-host mongodb:// URL.');
  const targetHost = target.hostname.replace(/^\[(.*)\]$/, '$1');
  const targetPort = Number(target.port || 27017);
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let stalled = false;
  let corruption: ReplyCorruption | null = null;
  let corruptedReplies = 0;
  let queryDelayMs = 0;
  let withhold: ((message: Buffer) => boolean) | null = null;
  let withheldRequests = 0;

  /** Calls `each` with every whole wire-protocol message `socket` sends. */
  const onMessages = (socket: Socket, each: (message: Buffer) => void) => {
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      // Every wire-protocol message starts with its length (int32, little-endian), itself included.
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        each(Buffer.from(pending.subarray(0, length)));
        pending = pending.subarray(length);
      }
    });
  };

  /** Passes each request on unless it is to be withheld, noting which ones are the handshake's; each whole reply as it is, damaged, late, or not at all. */
  const relay = (upstream: Socket, downstream: Socket) => {
    const handshakes = new Set<number>();
    let lastWrite = 0;
    onMessages(downstream, (request) => {
      if (withhold?.(request)) {
        withheldRequests++;
        return;
      }
      if (isHandshake(request)) handshakes.add(request.readInt32LE(4));
      upstream.write(request);
    });
    onMessages(upstream, (reply) => {
      if (stalled) return;
      if (corruption !== null) {
        reply.fill(corruption.byte, corruption.from, Math.min(corruption.to + 1, reply.length));
        corruptedReplies++;
      }
      const answers = reply.length >= 12 ? reply.readInt32LE(8) : -1;
      const delay = handshakes.delete(answers) ? 0 : queryDelayMs;
      // In order: no reply overtakes one delayed before it.
      const at = Math.max(Date.now() + delay, lastWrite);
      lastWrite = at;
      if (at <= Date.now()) downstream.write(reply);
      else setTimeout(() => downstream.writable && downstream.write(reply), at - Date.now());
    });
  };

  async function listen(port: number): Promise<number> {
    const listening = createServer((downstream) => {
      const upstream = connect(targetPort, targetHost);
      for (const socket of [downstream, upstream]) {
        sockets.add(socket);
        socket.on('error', () => socket.destroy());
        socket.on('close', () => {
          sockets.delete(socket);
          downstream.destroy();
          upstream.destroy();
        });
      }
      relay(upstream, downstream);
    });
    server = listening;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(port, '127.0.0.1', resolve);
    });
    return (listening.address() as AddressInfo).port;
  }

  async function stop(): Promise<void> {
    const stopping = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    if (stopping) await new Promise<void>((resolve) => stopping.close(() => resolve()));
  }

  const port = await listen(0);
  const url = new URL(targetUrl);
  url.host = `127.0.0.1:${port}`;
  if (url.pathname === '') url.pathname = '/';
  url.searchParams.set('directConnection', 'true');

  return {
    url: url.toString(),
    goDown: stop,
    comeBack: async () => {
      if (!server) await listen(port);
    },
    stallReplies: (on) => {
      stalled = on;
    },
    corruptReplies: (damage) => {
      corruption = damage;
    },
    delayQueries: (ms) => {
      queryDelayMs = ms;
    },
    get corruptedReplies() {
      return corruptedReplies;
    },
    withholdRequests: (match) => {
      withhold = match;
    },
    get withheldRequests() {
      return withheldRequests;
    },
    close: stop,
  };
}

/**
 * Whether a request is the handshake's (`hello`, `isMaster`): the first key of its command, read
 * from an OP_MSG body (opcode 2013, section kind 0) or a legacy OP_QUERY (opcode 2004).
 */
function isHandshake(request: Buffer): boolean {
  if (request.length < 21) return false;
  const opcode = request.readInt32LE(12);
  let document: number;
  if (opcode === 2013) {
    if (request[20] !== 0) return false;
    document = 21;
  } else if (opcode === 2004) {
    const name = request.indexOf(0, 20);
    if (name < 0) return false;
    document = name + 1 + 8;
  } else return false;
  // A BSON document: its length (int32), then its first element's type byte and its name (a C string).
  const key = document + 5;
  const end = request.indexOf(0, key);
  if (end < 0) return false;
  const command = request.toString('latin1', key, end).toLowerCase();
  return command === 'hello' || command === 'ismaster';
}
