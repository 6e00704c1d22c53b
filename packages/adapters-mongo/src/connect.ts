import { MongoClient, type Db } from 'mongodb';

/** Where the database is. */
export interface MongoConnectionConfig {
  readonly url: string;
  readonly database: string;
  /** How long an operation waits for a reachable server before it fails; default 2000 ms. */
  readonly serverSelectionTimeoutMS?: number;
}

/** One open client for the whole process, and the database the repositories work on. */
export interface MongoConnection {
  readonly client: MongoClient;
  readonly db: Db;
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
 * Opens the client and waits for the server, so a wrong or unreachable URL fails at start-up
 * with the driver's error (MongoServerSelectionError, MongoParseError). Afterwards the driver
 * reconnects on its own when the database comes back.
 */
export async function connectMongo(config: MongoConnectionConfig): Promise<MongoConnection> {
  const client = new MongoClient(config.url, {
    appName: 'inkwell',
    serverSelectionTimeoutMS: config.serverSelectionTimeoutMS ?? SERVER_SELECTION_TIMEOUT_MS,
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    socketTimeoutMS: SOCKET_TIMEOUT_MS,
  });
  try {
    await client.connect();
  } catch (error) {
    // Stops the monitors a failed connect may leave behind, so the process can exit.
    await client.close();
    throw error;
  }
  const db = client.db(config.database);

  return {
    client,
    db,
    ping: () => pingDatabase(db),
    close: () => client.close(),
  };
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
