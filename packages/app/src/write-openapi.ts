import { POST_ACCESS_MODES, type PostAccessMode } from '@inkwell/domain';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { readConfig } from './config.js';
import { createInkwell } from './inkwell.js';
import { createLogger } from './logger.js';

/**
 * `pnpm lint:openapi`'s first half: writes the document a server in posts access mode `mode`
 * really serves at `GET /openapi.json` (an app on the memory store, asked through its own
 * router) to `target`, for `redocly lint` to check. Each mode serves its own document, so the
 * script writes and lints one per mode.
 */
async function writeOpenApi(target: string, mode: PostAccessMode): Promise<void> {
  const inkwell = await createInkwell(
    readConfig({ DB_URL: 'memory:', HASH_WORKERS: '1', POSTS_ACCESS: mode }),
    createLogger('silent'),
  );
  try {
    const res = await inkwell.app.request('/openapi.json');
    if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, `${JSON.stringify(await res.json(), null, 2)}\n`);
  } finally {
    await inkwell.close();
  }
}

const [target, mode = 'open'] = process.argv.slice(2);
const isMode = (value: string): value is PostAccessMode => (POST_ACCESS_MODES as readonly string[]).includes(value);
if (!target || !isMode(mode)) {
  console.error(`usage: write-openapi <output.json> [${POST_ACCESS_MODES.join('|')}]`);
  process.exit(2);
}
await writeOpenApi(resolve(target), mode);
console.log(`wrote ${target} (POSTS_ACCESS=${mode})`);
