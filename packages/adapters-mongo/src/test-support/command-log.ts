import { MongoClient, type CommandStartedEvent, type CommandSucceededEvent, type Db } from 'mongodb';

/** A client that records the commands it sends, for tests that assert what reaches the server. */
export interface CommandLog {
  readonly db: Db;
  /** Started and succeeded events in the order they happened; heartbeats are not commands. */
  readonly events: (CommandStartedEvent | CommandSucceededEvent)[];
  close(): Promise<void>;
}

/** Opens a command-monitoring client on `database` at `url`. */
export async function recordCommands(url: string, database: string): Promise<CommandLog> {
  const client = new MongoClient(url, { monitorCommands: true, serverSelectionTimeoutMS: 5000 });
  const events: (CommandStartedEvent | CommandSucceededEvent)[] = [];
  client.on('commandStarted', (event) => events.push(event));
  client.on('commandSucceeded', (event) => events.push(event));
  await client.connect();
  return { db: client.db(database), events, close: () => client.close() };
}
