// @inkwell/adapters-mongo as a service outside this repository gets it: both published packages
// packed with pnpm, then the README's setup run as shown, from `npm init -y` on (its own install
// command installs both in one go, the packed tarballs in place of their names, so the adapter's
// peer on @inkwell/domain is the packed domain, never the registry's), and its example saved,
// compiled and run as the setup says, against the test MongoDB. Skipped, with one line saying so,
// without a MongoDB.
import { mongoTest, withTestMongo, type TestMongo } from '@inkwell/adapters-mongo/testing';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPublished, installArguments, pack, readme, readmeProject, shownOutput, type Consumer } from './packed.js';

const EXAMPLE = 'tests/examples/adapters-mongo-package.ts';

describe.skipIf(!mongoTest)('@inkwell/adapters-mongo, packed and installed with npm outside the workspace', () => {
  let packed: Awaited<ReturnType<typeof pack>>;
  let consumer: Consumer;
  let mongo: TestMongo;

  beforeAll(async () => {
    await buildPublished();
    packed = await pack(['domain', 'adapters-mongo']);
    const tarballs = { '@inkwell/domain': packed.tarballs.domain, '@inkwell/adapters-mongo': packed.tarballs['adapters-mongo'] };
    [consumer, mongo] = await Promise.all([readmeProject(readme('adapters-mongo'), tarballs), withTestMongo({ indexes: false })]);
  }, 180_000);

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

  it("compiles and runs the README's example as its setup says, on MongoDB, printing what the README shows", { timeout: 60_000 }, async () => {
    const printed = await consumer.runExample(EXAMPLE, { DB_URL: mongo.url, DB_DATABASE: mongo.database });
    expect(printed).toBe(shownOutput(readme('adapters-mongo'), EXAMPLE));
    // The example wrote through the adapter into the database it was given.
    expect(await mongo.db.collection('users').countDocuments({ email: 'grace@example.com' })).toBe(1);
  });
});
