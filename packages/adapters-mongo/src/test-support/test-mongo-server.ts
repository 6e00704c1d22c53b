import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { isMainThread } from 'node:worker_threads';
import { afterAll } from 'vitest';

/** A MongoDB server for integration tests, and where it came from. */
export interface TestMongoServer {
  readonly url: string;
  readonly origin: 'DB_URL' | 'testcontainers';
}

const MONGO_IMAGE = 'mongo:7';
const DOCKER_PROBE_TIMEOUT_MS = 3000;
const SKIP_MARKER_PREFIX = 'inkwell-mongo-tests-skipped-';
const SKIP_LINE =
  '[inkwell] MongoDB integration tests SKIPPED: DB_URL names no MongoDB and no Docker engine answers. ' +
  'Set DB_URL=mongodb://... or start Docker to run them.';

/**
 * Finds the MongoDB for this test file: the server `DB_URL` names, the variable the app reads
 * too, when it is a `mongodb://` URL (each test file then works in a database of its own there,
 * never in `DB_DATABASE`); else a Testcontainers `mongo:7`
 * when a Docker engine answers (stopped by a file-level afterAll, so call this while a test file
 * is being collected); else null, after printing one loud line per test run.
 */
export async function resolveTestMongoServer(): Promise<TestMongoServer | null> {
  const url = process.env.DB_URL;
  if (url !== undefined && /^mongodb(\+srv)?:\/\//.test(url)) return { url, origin: 'DB_URL' };
  if (await dockerAnswers()) return startContainer();
  announceSkipOncePerRun();
  return null;
}

async function dockerAnswers(): Promise<boolean> {
  try {
    // Imported only here: Testcontainers is slow to load and useless when DB_URL names a MongoDB.
    const { getContainerRuntimeClient } = await import('testcontainers');
    // An unref'd timer, so a hung Docker socket neither blocks collection nor keeps the process alive.
    return await Promise.race([
      getContainerRuntimeClient().then(() => true),
      delay(DOCKER_PROBE_TIMEOUT_MS, false, { ref: false }),
    ]);
  } catch {
    return false;
  }
}

async function startContainer(): Promise<TestMongoServer> {
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const container = await new MongoDBContainer(MONGO_IMAGE).start();
  afterAll(async () => {
    await container.stop();
  });
  // The container is a one-member replica set that advertises an internal host name;
  // a direct connection skips discovery and uses the mapped port.
  return { url: `${container.getConnectionString()}/?directConnection=true`, origin: 'testcontainers' };
}

// Vitest runs each test file in its own worker, so "once per run" needs a mark outside the
// process: an exclusive-create file named after the Vitest main process. Marks of runs that
// have ended are removed on the way, so they do not pile up in the temp directory.
function announceSkipOncePerRun(): void {
  const runnerPid = isMainThread ? process.ppid : process.pid;
  const dir = tmpdir();
  try {
    writeFileSync(join(dir, `${SKIP_MARKER_PREFIX}${runnerPid}`), '', { flag: 'wx' });
  } catch {
    return;
  }
  process.stderr.write(`\n${SKIP_LINE}\n\n`);
  for (const name of readdirSync(dir)) {
    const pid = Number(name.slice(SKIP_MARKER_PREFIX.length));
    if (name.startsWith(SKIP_MARKER_PREFIX) && !isRunning(pid)) rmSync(join(dir, name), { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0); // signal 0 only checks that the process exists
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
