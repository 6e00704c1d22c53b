import { MongoClient, type Db } from 'mongodb';

/** Where the database is. */
export interface MongoConnectionConfig {
  readonly url: string;
  readonly database: string;
  /** How long an operation waits for a reachable server before it fails; default 2000 ms. */
  readonly serverSelectionTimeoutMS?: number;
}

/** One client for the whole process, and the database the repositories work on. */
export interface MongoConnection {
  readonly client: MongoClient;
  readonly db: Db;
  /**
   * Connects the client and waits for the server, with the driver's error when it cannot
   * (MongoServerSelectionError when nothing answers). Once connected, the driver reconnects on
   * its own when the database comes back; a connect that failed leaves the client closed, and
   * `connect` may be called again.
   */
  connect(): Promise<void>;
  /** True when the database answers a ping; false, never a throw, when it does not (within the selection timeout). */
  ping(): Promise<boolean>;
  /** Closes the client and its pooled connections. */
  close(): Promise<void>;
}

// A lost database must cost a request a few seconds, not a hang: selection gives up after
// serverSelectionTimeoutMS, a new socket after connectTimeoutMS, a silent one after socketTimeoutMS.
const CONNECT_TIMEOUT_MS = 2000;
const SOCKET_TIMEOUT_MS = 10_000;
const SERVER_SELECTION_TIMEOUT_MS = 2000;

/**
 * The client for `config`, not connected yet: a URL the driver cannot use (malformed, an unknown
 * or invalid option, unescaped characters in the credentials) throws its MongoParseError at
 * once, before anything is tried, since no retry can mend it.
 */
export function openMongo(config: MongoConnectionConfig): MongoConnection {
  const client = new MongoClient(config.url, {
    appName: 'inkwell',
    serverSelectionTimeoutMS: config.serverSelectionTimeoutMS ?? SERVER_SELECTION_TIMEOUT_MS,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    socketTimeoutMS: SOCKET_TIMEOUT_MS,
  });
  const db = client.db(config.database);
  return {
    client,
    db,
    connect: async () => {
      await client.connect();
    },
    ping: () => pingDatabase(db),
    close: () => client.close(),
  };
}

/**
 * Opens the client and waits for the server, so a wrong or unreachable URL fails with the
 * driver's error (MongoServerSelectionError, MongoParseError). Afterwards the driver reconnects
 * on its own when the database comes back.
 */
export async function connectMongo(config: MongoConnectionConfig): Promise<MongoConnection> {
  const connection = openMongo(config);
  try {
    await connection.connect();
  } catch (error) {
    // Stops the monitors a failed connect may leave behind, so the process can exit.
    await connection.close();
    throw error;
  }
  return connection;
}

/**
 * How long an operation on `db` waits for the database's answer before it fails: its client's
 * socket timeout (10 s for a client `openMongo` made), or Infinity for a client that never gives up.
 */
export function answerTimeoutMs(db: Db): number {
  const { socketTimeoutMS } = db.client.options;
  return socketTimeoutMS > 0 ? socketTimeoutMS : Number.POSITIVE_INFINITY;
}

/** True when the database answers a ping; false, never a throw, when it does not (within the client's selection timeout). */
export async function pingDatabase(db: Db): Promise<boolean> {
  try {
    await db.command({ ping: 1 });
    return true;
  } catch {
    return false;
  }
}
