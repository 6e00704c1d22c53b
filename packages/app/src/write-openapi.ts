import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { readConfig } from './config.js';
import { createInkwell } from './inkwell.js';
import { createLogger } from './logger.js';

/**
 * `pnpm lint:openapi`'s first half: writes the document the server really serves at
 * `GET /openapi.json` (an app on the memory store, asked through its own router) to the path
 * given as the only argument, for `redocly lint` to check.
 */
async function writeOpenApi(target: string): Promise<void> {
  const inkwell = await createInkwell(readConfig({ DB_URL: 'memory:', HASH_WORKERS: '1' }), createLogger('silent'));
  try {
    const res = await inkwell.app.request('/openapi.json');
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, `${JSON.stringify(await res.json(), null, 2)}\n`);
  } finally {
    await inkwell.close();
  }
}

const target = process.argv[2];
if (!target) {
  console.error('usage: write-openapi <output.json>');
  process.exit(2);
}
await writeOpenApi(resolve(target));
console.log(`wrote ${target}`);
