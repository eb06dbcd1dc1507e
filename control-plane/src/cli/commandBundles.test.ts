// The runner of the control plane's commands (control-plane/bin/run.mjs): a command runs from its
// bundle, built again once a file it holds changed, and a name that is no command is refused.
// Run: node --import tsx --test control-plane/src/cli/commandBundles.test.ts
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const plane = fileURLToPath(new URL('../..', import.meta.url));
const runner = join(plane, 'bin', 'run.mjs');
const bundle = join(plane, 'dist', 'bin', 'rollout.mjs');
const source = join(plane, 'bin', 'rollout.ts');

/** Runs `node` with no loader at all, as the npm scripts do. */
const node = (...args: string[]) => spawnSync(process.execPath, args, { cwd: plane, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });

const { isFresh } = (await import(runner)) as { isFresh(command: string): boolean };

describe('the commands run from their bundles', () => {
  it('runs a command with its own arguments', () => {
    const result = node(runner, 'rollout', '--help');
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /usage: npm run rollout -- <command>/);
    assert.ok(isFresh('rollout'));
  });

  it('builds the bundle again once a file it holds changed, and only then', () => {
    node(runner, 'rollout', '--help');
    const built = statSync(bundle).mtimeMs;
    assert.equal(node(runner, 'rollout', '--help').status, 0);
    assert.equal(statSync(bundle).mtimeMs, built, 'a fresh bundle is built again');
    // Changed now: after the bundle's build began.
    const changed = new Date(Math.max(Date.now(), Math.ceil(built) + 1));
    utimesSync(source, changed, changed);
    assert.equal(isFresh('rollout'), false);
    const result = node(runner, 'rollout', '--help');
    assert.equal(result.status, 0, result.stderr);
    assert.ok(statSync(bundle).mtimeMs > built, 'the stale bundle was not built again');
    assert.ok(isFresh('rollout'));
  });

  it('refuses a name that is no command, naming the commands', () => {
    const result = node(runner, 'rollouts', 'status');
    assert.equal(result.status, 1);
    assert.match(result.stderr, /no command "rollouts": one of api, openapi, qa-token, release, rollout, tokens/);
  });
});
