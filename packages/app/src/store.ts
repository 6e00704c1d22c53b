import { createInMemoryPostRepository, createInMemoryUserRepository, type PostRepository, type UserRepository } from '@inkwell/domain';
import { MEMORY_DB_URL, type Config } from './config.js';

/** The repositories of one store, with what start-up, health and shutdown need of it. */
export interface Store {
  readonly users: UserRepository;
  readonly posts: PostRepository;
  /** How the listening line names it: `memory` or `mongodb (DB_NAME)`. */
  readonly label: string;
  /** Whether the store answers now; cheap enough for a health check every second. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Opens the store `DB_URL` selects. */
export async function openStore(config: Config): Promise<Store> {
  if (config.dbUrl === MEMORY_DB_URL) {
    return {
      users: createInMemoryUserRepository(),
      posts: createInMemoryPostRepository(),
      label: 'memory',
      ping: async () => true,
      close: async () => undefined,
    };
  }
  throw new Error(
    `DB_URL ${config.dbUrl} selects MongoDB, which this build does not support yet. Use DB_URL=${MEMORY_DB_URL} (pnpm dev) for the in-memory store.`,
  );
}
