// `npm run release -- <remote> [--version 1.4.0] [--from <dir>]` (or `npm run release -w <remote>`):
// builds that one remote alone and publishes it as the immutable release deploy/<remote>/<version>/.
// Nothing else is built or touched; rolling it out is a separate step (control-plane/bin/rollout.ts).
// With NETNET_CONTROL_URL and NETNET_TOKEN set, the build is uploaded to the control-plane API as one
// archive instead, which verifies and publishes it (docs/pipelines.md). What it reads from its
// environment: RELEASE_VARIABLES (../src/config.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { readConfig } from '@netnet/server-kit';
import { apiTarget, callApi, type ApiTarget } from '../src/api/client.ts';
import { packDirectory } from '../src/api/packArchive.ts';
import { cliActor, runCli } from '../src/cli/run.ts';
import { copyBuild } from '../src/releases/copyBuild.ts';
import { RELEASE_VARIABLES } from '../src/config.ts';
import { entryIntegrity, writeIntegrity } from '../src/releases/integrity.ts';
import { DeployError } from '../src/errors.ts';
import { assertRemote, assertVersion } from '../src/names.ts';
import { checkCompressedCopies, checkManifest } from '../src/releases/verify.ts';
import { openDatabase } from '../src/store/database.ts';
import { publishRelease } from '../src/store/releases.ts';
import { storedFileHashes } from '../src/store/releaseFiles.ts';

const require = createRequire(import.meta.url);
// The checkout: a release is built from the remote's workspace in it.
const root = fileURLToPath(new URL('../..', import.meta.url));

const USAGE = `usage: npm run release -- <remote> [--version <x.y.z>] [--from <built dir>]
  Builds <remote> for production and publishes it as deploy/<remote>/<version>/.
  --version  the release's version (default: the remote's package.json version)
  --from     publish a build made earlier (with MF_BUILD_VERSION=<version>) instead of building`;

/** webpack for this remote only, into a folder of our choosing; its manifest records the version. */
function build(remote: string, version: string, outDir: string): Promise<void> {
  const webpack = require.resolve('webpack-cli/bin/cli.js');
  return new Promise<void>((done, fail) => {
    // NETNET_BUILD_DIR, not --output-path: the browser, runtime and server builds each have their place in it.
    const child = spawn(process.execPath, [webpack, '--mode', 'production'], {
      cwd: join(root, remote),
      env: { ...process.env, MF_BUILD_VERSION: version, NETNET_BUILD_DIR: outDir },
      stdio: 'inherit',
    });
    child.on('error', fail);
    child.on('exit', (code) => (code === 0 ? done() : fail(new DeployError(`the build of ${remote} failed (exit ${code}).`))));
  });
}

/**
 * Builds (or takes --from) the release in a folder of its own, checks it is what it says, and
 * uploads it as one tar.gz to the API, which verifies it whole before publishing it.
 */
async function publishThroughApi(target: ApiTarget, remote: string, version: string, from: string | undefined) {
  const staging = mkdtempSync(join(tmpdir(), `netnet-release-${remote}-`));
  const built = join(staging, 'build');
  try {
    if (from) {
      if (!existsSync(resolve(from))) throw new DeployError(`${from} does not exist.`);
      copyBuild(resolve(from), built);
    } else await build(remote, version, built);
    checkManifest(built, remote, version, from ?? 'the build');
    const archive = packDirectory(built);
    const started = Date.now();
    const { body } = await callApi<{ outcome: string; files: number; bytes: number }>(
      target,
      'POST',
      `/v1/remotes/${encodeURIComponent(remote)}/releases/${encodeURIComponent(version)}`,
      { archive },
    );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (body.outcome === 'unchanged') console.log(`${remote} ${version} was published already with exactly these files: nothing changed (${seconds} s).`);
    else console.log(`published ${remote} ${version} through ${target.url}: ${body.files} files, ${body.bytes} bytes, verified and published in ${seconds} s`);
    console.log(`next: npm run rollout -- canary ${remote} ${version} --percent 10`);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    options: { version: { type: 'string' }, from: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (values.help || positionals.length !== 1) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 1;
    return;
  }
  const config = readConfig(RELEASE_VARIABLES, process.env);
  // With NETNET_CONTROL_URL and NETNET_TOKEN: built here, published by the API, which verifies it.
  const api = apiTarget(config);
  const remote = assertRemote(positionals[0]);
  const version = assertVersion(values.version ?? (require(`../../${remote}/package.json`) as { version: string }).version);
  if (api) return publishThroughApi(api, remote, version, values.from);
  const target = join(config.deployDir, remote, version);
  const db = await openDatabase({ store: config, max: 1, role: 'cli', actor: cliActor() });
  // Built in the working folder, checked, then published into the store (its row and its files in
  // one transaction) and kept there as this machine's working copy.
  const staging = join(config.deployDir, remote, `.staging-${version}-${process.pid}`);
  try {
    if ((await storedFileHashes(db.pool, remote, version)).size > 0) {
      throw new DeployError(`${remote} ${version} is already published. Releases are immutable: publish a new version with --version.`);
    }
    mkdirSync(dirname(staging), { recursive: true });
    if (values.from) {
      if (!existsSync(resolve(values.from))) throw new DeployError(`${values.from} does not exist.`);
      copyBuild(resolve(values.from), staging);
    }
    else await build(remote, version, staging);
    checkManifest(staging, remote, version, values.from ?? 'the build');
    // The same checks as an upload's (control-plane/src/releases/verify.ts): a .br/.gz that no longer
    // matches its file (the build changed after webpack compressed it) would fail every member's
    // integrity check once served, so it refuses the release.
    await checkCompressedCopies(staging, values.from ?? 'the build');
    // Hashed before publishing: a published release always carries the record of its own files.
    writeIntegrity(staging);
    if (!(await publishRelease(db.pool, { remote, version, integrity: entryIntegrity(staging), dir: staging }))) {
      throw new DeployError(`${remote} ${version} was published by someone else meanwhile.`);
    }
    if (!existsSync(target)) renameSync(staging, target);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    await db.close();
  }
  const nearby = relative(process.cwd(), target);
  const shown = nearby && !nearby.startsWith('..') ? nearby : target;
  console.log(`published ${remote} ${version} into the store (working copy: ${shown})`);
  console.log(`next: npm run rollout -- canary ${remote} ${version} --percent 10`);
}

runCli(main);
