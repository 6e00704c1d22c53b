// @inkwell/adapters-mongo as a service outside this repository gets it: both published packages
// packed with pnpm and installed with npm in one command into an empty project (so the adapter's
// peer on @inkwell/domain is the packed domain, never the registry's), with the README's own
// install command; its README example compiled against the installed types and run with plain
// node against the test MongoDB. Skipped, with one line saying so, without a MongoDB.
import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublished, installArguments, npmProject, pack, readme, shownOutput, type Consumer } from './packed.js';

const EXAMPLE = 'tests/examples/adapters-mongo-package.ts';

describe.skipIf(!mongoTest)('@inkwell/adapters-mongo, packed and installed with npm outside the workspace', () => {
  let packed: Awaited<ReturnType<typeof pack>>;
  let consumer: Consumer;
  let mongo: TestMongo;

  beforeAll(async () => {
    await buildPublished();
    packed = await pack(['domain', 'adapters-mongo']);
    const tarballOf: Record<string, string> = { '@inkwell/domain': packed.tarballs.domain, '@inkwell/adapters-mongo': packed.tarballs['adapters-mongo'] };
    const install = installArguments(readme('adapters-mongo')).map((spec) => tarballOf[spec] ?? spec);
    // @types/node for compiling the example, as any TypeScript project on Node has it.
    [consumer, mongo] = await Promise.all([npmProject([...install, '@types/node@^20']), withTestMongo({ indexes: false })]);
  }, 120_000);

  afterAll(async () => {
    consumer?.remove();
    if (packed) rmSync(packed.dir, { recursive: true, force: true });
    await mongo?.cleanup();
  });

  it("installs with the README's command: the packed domain under the adapter, mongodb and valibot from the registry", () => {
    expect(installArguments(readme('adapters-mongo'))).toEqual(['@inkwell/adapters-mongo', '@inkwell/domain', 'mongodb', 'valibot']);
    const adapter = consumer.manifest('@inkwell/adapters-mongo');
    expect(adapter.peerDependencies).toMatchObject({ '@inkwell/domain': `^${String(consumer.manifest('@inkwell/domain').version)}` });
    expect(consumer.manifest('@inkwell/domain')).toMatchObject({ name: '@inkwell/domain', version: adapter.version });
    // One copy of the domain, the packed one: the adapter throws the DomainErrors the use cases check.
    expect(consumer.resolved('@inkwell/domain')).toStrictEqual({ 'node_modules/@inkwell/domain': expect.stringMatching(/^file:.*\.tgz$/) });
    expect(consumer.manifest('mongodb').version).toMatch(/^7\./);
  });

  it("runs the README's example with plain node on MongoDB and prints what the README shows", { timeout: 60_000 }, async () => {
    const printed = await consumer.runExample(EXAMPLE, { DB_URL: mongo.url, DB_DATABASE: mongo.database });
    expect(printed).toBe(shownOutput(readme('adapters-mongo'), EXAMPLE));
    // The example wrote through the adapter into the database it was given.
    expect(await mongo.db.collection('users').countDocuments({ email: 'grace@example.com' })).toBe(1);
  });
});
