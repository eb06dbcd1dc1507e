// The compatibility gate of `rollout stable|canary|promote`: a release reaches members only if the
// shell that will host it provides every shared package in a version its mf-manifest.json accepts
// (control-plane/src/releases/compatibility.ts). Otherwise the release would get a second copy of React or a
// singleton it was not built for, and fail at run time in members' browsers rather than here.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { variable } from '@netnet/server-kit';
import { z } from 'zod';
import { DeployError, codeOf, messageOf } from '../errors.ts';
import { describeUnsatisfied, installedVersions, providedVersions, unsatisfiedRequirements, type Manifest } from './compatibility.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const shellFolder = join(root, 'shell');

export const OVERRIDE_FLAG = '--skip-compatibility';

/** Read by whatever runs the gate: the rollout command and the control-plane API (its changes and uploads). */
export const SHELL_MANIFEST_VARIABLES = {
  shellManifest: variable(
    'NETNET_SHELL_MANIFEST',
    z.string().optional(),
    "the shell manifest the compatibility gate checks releases against, when the job that rolls out keeps it elsewhere (default shell/dist/mf-manifest.json, else the shell's installed packages)",
  ),
};

/** What the gate reads: NETNET_SHELL_MANIFEST, and where the published releases are (NETNET_DEPLOY_DIR). */
export interface GateSettings {
  shellManifest?: string | undefined;
  deployDir: string;
}

function readJson(path: string): Manifest {
  const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object');
  if ('shared' in value && value.shared !== undefined && !Array.isArray(value.shared)) throw new Error('its "shared" is not a list');
  return value;
}

const shown = (path: string) => {
  const nearby = relative(process.cwd(), path);
  return nearby && !nearby.startsWith('..') ? nearby : path;
};

/**
 * What the shell provides: the manifest of the shell build members get — NETNET_SHELL_MANIFEST
 * when the job that rolls out keeps it elsewhere, else shell/dist/mf-manifest.json — or, where the
 * shell was never built, the packages installed for it.
 */
function shellProvides(names: string[], named: string | undefined): { provided: Map<string, string>; problem?: undefined } | { problem: string; provided?: undefined } {
  const path = named ? resolve(named) : join(shellFolder, 'dist', 'mf-manifest.json');
  if (!named && !existsSync(path)) return { provided: installedVersions(names, { from: shellFolder }) };
  try {
    return { provided: providedVersions(readJson(path)) };
  } catch (error) {
    const reason = codeOf(error) === 'ENOENT' ? 'it does not exist' : messageOf(error);
    return { problem: `the shell's manifest ${shown(path)} cannot be read (${reason}), so no release can be checked against it` };
  }
}

/**
 * Why the shell cannot host this release, one line per problem, or null when it can: an upload's
 * check (./upload.ts), with its process's NETNET_SHELL_MANIFEST. `dir`: where its files are (the
 * upload's staging folder).
 */
export function compatibilityProblems(remote: string, version: string, shellManifest: string | undefined, dir: string): string | null {
  return gateProblems(remote, version, shellManifest, dir);
}

/** Why the shell cannot host the release whose files are in `dir`, or null when it can. */
function gateProblems(remote: string, version: string, shellManifest: string | undefined, dir: string): string | null {
  const path = join(dir, 'mf-manifest.json');
  let manifest: Manifest;
  try {
    manifest = readJson(path);
  } catch (error) {
    return `${remote} ${version} has no readable mf-manifest.json (${messageOf(error)}), so what it needs from the shell cannot be checked`;
  }
  const shared: unknown[] = Array.isArray(manifest.shared) ? manifest.shared : [];
  const names = shared
    .map((entry) => (entry !== null && typeof entry === 'object' && 'name' in entry ? entry.name : undefined))
    .filter((name): name is string => typeof name === 'string');
  const { provided, problem } = shellProvides(names, shellManifest);
  if (problem !== undefined) return problem;
  const unsatisfied = unsatisfiedRequirements(manifest, provided);
  return unsatisfied.length ? describeUnsatisfied(unsatisfied, { remote, version }) : null;
}

/**
 * The gate itself: a DeployError when the release does not fit the shell, unless `skip`, in which
 * case `warn` is told what was let through.
 */
export function checkCompatibility({
  remote,
  version,
  skip,
  gate,
  warn,
}: {
  remote: string;
  version: string;
  skip: boolean | undefined;
  gate: GateSettings;
  warn: (line: string) => void;
}): void {
  // A published release's folder in the origin (as ./originFolder.ts lays them out).
  const problems = gateProblems(remote, version, gate.shellManifest, join(gate.deployDir, remote, version));
  if (!problems) return;
  if (skip) {
    warn(`warning: ${OVERRIDE_FLAG}: rolling out ${remote} ${version} although the compatibility gate refuses it:\n${indent(problems)}`);
    return;
  }
  throw new DeployError(
    `the compatibility gate refuses ${remote} ${version}:\n${indent(problems)}\n` +
      `Release a build made against the versions the shell provides, or first deploy a shell that provides what it needs; ` +
      `${OVERRIDE_FLAG} rolls it out anyway.`,
  );
}

const indent = (text: string) => text.split('\n').map((line) => `  ${line}`).join('\n');
