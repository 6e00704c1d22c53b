// The cycle rule `pnpm lint` runs (.dependency-cruiser.mjs), on small projects made here: it fails on
// two folders that import each other by way of different modules, and on two modules that import
// each other, and passes layers that only point one way.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../', import.meta.url));
const depcruise = join(root, 'node_modules/.bin/depcruise');

let project: string | undefined;
afterEach(() => {
  if (project) rmSync(project, { recursive: true, force: true });
  project = undefined;
});

/** Writes `files` (path to source) into a new project folder and runs the rules on its `dir`: exit code and output. */
async function cruise(files: Record<string, string>, dir = 'src'): Promise<{ code: number; output: string }> {
  project = mkdtempSync(join(tmpdir(), 'inkwell-cycles-'));
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(project, path)), { recursive: true });
    writeFileSync(join(project, path), source);
  }
  try {
    const { stdout } = await run(depcruise, ['--config', '.dependency-cruiser.mjs', '--output-type', 'err', join(project, dir)], { cwd: root });
    return { code: 0, output: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, output: failed.stdout ?? '' };
  }
}

describe('the cycle rule of pnpm lint', () => {
  it('fails on two folders that import each other, though no two modules do', async () => {
    const { code, output } = await cruise({
      'src/accounts/delete-account.ts': "import type { PostRepository } from '../posts/ports.js';\nexport type Posts = PostRepository;\n",
      'src/accounts/caller.ts': 'export type Caller = string;\n',
      'src/posts/ports.ts': 'export interface PostRepository { deleteByAuthor(id: string): Promise<number> }\n',
      'src/posts/get-post.ts': "import type { Caller } from '../accounts/caller.js';\nexport type Reader = Caller;\n",
    });
    expect(code).not.toBe(0);
    expect(output).toContain('error no-folder-cycle');
    expect(output).not.toContain('no-module-cycle');
  });

  it('fails on two modules that import each other', async () => {
    const { code, output } = await cruise({
      'src/store.ts': "import type { MongoStore } from './mongo-store.js';\nexport type Store = { open(): MongoStore };\n",
      'src/mongo-store.ts': "import type { Store } from './store.js';\nexport type MongoStore = Store;\n",
    });
    expect(code).not.toBe(0);
    expect(output).toContain('error no-module-cycle');
  });

  it('passes folders that point one way, tests aside: a test that imports across closes no cycle', async () => {
    const { code, output } = await cruise({
      'src/accounts/caller.ts': 'export type Caller = string;\n',
      'src/accounts/caller.test.ts': "import type { Reader } from '../posts/get-post.js';\nexport type Read = Reader;\n",
      'src/posts/get-post.ts': "import type { Caller } from '../accounts/caller.js';\nexport type Reader = Caller;\n",
    });
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });
});

describe('the thin-adapter rule of pnpm lint', () => {
  const adapter = 'packages/adapters-http/src';
  const servingLayer = { [`${adapter}/node/serve-node.ts`]: 'export const serveNode = (): void => undefined;\n' };

  it('fails on a route or a middleware that imports the Node serving layer', async () => {
    for (const importer of ['routes/posts.ts', 'middleware/access-log.ts', 'http-app.ts']) {
      const depth = importer.split('/').length - 1;
      const { code, output } = await cruise(
        { ...servingLayer, [`${adapter}/${importer}`]: `import { serveNode } from '${depth === 0 ? './' : '../'.repeat(depth)}node/serve-node.js';\nexport const served = serveNode;\n` },
        adapter,
      );
      expect(code).not.toBe(0);
      expect(output).toContain('error no-serving-layer-import');
    }
  });

  it('passes the index exporting serveNode, and the serving layer importing the rest', async () => {
    const { code, output } = await cruise(
      {
        ...servingLayer,
        [`${adapter}/index.ts`]: "export { serveNode } from './node/serve-node.js';\n",
        [`${adapter}/request/request-facts.ts`]: 'export const facts = 1;\n',
        [`${adapter}/node/node-bindings.ts`]: "import { facts } from '../request/request-facts.js';\nexport const bound = facts;\n",
      },
      adapter,
    );
    expect(output).toContain('no dependency violations found');
    expect(code).toBe(0);
  });
});
