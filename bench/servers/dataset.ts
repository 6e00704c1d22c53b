import type { Post, Session, User } from '@inkwell/domain';
import { readFileSync } from 'node:fs';

// The records are the domain's own shapes (types only: no compared server runs inkwell's code).
export type { Post, Session, User } from '@inkwell/domain';

/**
 * What inkwell held when `pnpm bench` captured it, for the servers it is compared with to start
 * from: every post, every account with its live sessions, the secret tokens are signed with, and
 * the headers inkwell puts on every answer (its security headers), in its order.
 */
export interface Dataset {
  readonly jwtSecret: string;
  readonly posts: readonly Post[];
  readonly accounts: ReadonlyArray<{ readonly user: User; readonly sessions: readonly Session[] }>;
  readonly answerHeaders: ReadonlyArray<readonly [string, string]>;
}

/** The dataset in the file named by the server's first argument. */
export function datasetFromArguments(): Dataset {
  const path = process.argv[2];
  if (!path) {
    console.error(`usage: node --import tsx ${process.argv[1]} DATASET.json`);
    process.exit(2);
  }
  return JSON.parse(readFileSync(path, 'utf8')) as Dataset;
}

/** Where a server started by the bench listens: PORT and HOST, as inkwell reads them. */
export function listenAddress(): { port: number; host: string } {
  return { port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' };
}
