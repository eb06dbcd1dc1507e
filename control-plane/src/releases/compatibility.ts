// The compatibility gate: a release's mf-manifest.json lists in `shared` each package it expects
// from the page (react, react-dom, jotai, @netnet/shared…) with the range it was built against
// (`requiredVersion`); the shell provides one version of each (its own manifest's `version`). A
// release whose range the shell's version does not satisfy would get a second copy or a broken
// singleton at run time, so `stable`, `canary` and `promote` refuse it (control-plane/src/releases/compatibilityGate.ts).
// Ranges are read as the `semver` package reads them: a pre-release satisfies only a range that
// names a pre-release of the same version, as npm installs them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import semver from 'semver';

/** An mf-manifest.json as read here: its `shared` list, whatever else it holds. */
export interface Manifest {
  shared?: unknown;
}

export interface Unsatisfied {
  name: string;
  required: string;
  provided: string | null;
}

/** The entries of a manifest's `shared` list, as objects whose fields are still to be checked. */
const sharedOf = (manifest: Manifest | null | undefined): Record<string, unknown>[] =>
  (Array.isArray(manifest?.shared) ? (manifest.shared as unknown[]) : []).map((entry) =>
    entry !== null && typeof entry === 'object' ? (entry as Record<string, unknown>) : {},
  );

/** name → version the shell provides, from its mf-manifest.json (`shared[].version`). */
export function providedVersions(shellManifest: Manifest | null | undefined): Map<string, string> {
  const provided = new Map<string, string>();
  for (const entry of sharedOf(shellManifest)) {
    if (typeof entry.name === 'string' && typeof entry.version === 'string') provided.set(entry.name, entry.version);
  }
  return provided;
}

/** The package a shared name belongs to: react-dom/client → react-dom, @netnet/shared/x → @netnet/shared. */
export const packageOf = (name: string): string => name.split('/').slice(0, name.startsWith('@') ? 2 : 1).join('/');

/**
 * name → installed version for each of `names`, resolved from the folder `from` (the shell's), for
 * when no shell build is at hand. A name that does not resolve is left out.
 */
export function installedVersions(names: string[], { from }: { from: string }): Map<string, string> {
  const require = createRequire(join(resolve(from), 'package.json'));
  const installed = new Map<string, string>();
  for (const name of names) {
    try {
      const { version } = JSON.parse(readFileSync(require.resolve(`${packageOf(name)}/package.json`), 'utf8')) as { version?: unknown };
      if (typeof version === 'string') installed.set(name, version);
    } catch {
      // Not installed, or its package.json not exported: reported as not provided.
    }
  }
  return installed;
}

/**
 * The release's shared requirements the shell does not meet, each with the package and both
 * versions: `{ name, required, provided }` (`provided` null when the shell does not share it).
 * A requirement of `false`, none, or "*" accepts anything.
 * `releaseManifest`: the release's mf-manifest.json, parsed; `provided`: from providedVersions()
 * or installedVersions().
 */
export function unsatisfiedRequirements(releaseManifest: Manifest | null | undefined, provided: Map<string, string>): Unsatisfied[] {
  const unsatisfied: Unsatisfied[] = [];
  for (const entry of sharedOf(releaseManifest)) {
    const { name, requiredVersion: required } = entry;
    if (typeof name !== 'string' || typeof required !== 'string' || required.trim() === '' || required.trim() === '*') continue;
    const version = provided.get(name) ?? null;
    const ok = version !== null && semver.validRange(required) !== null && semver.valid(version) !== null && semver.satisfies(version, required);
    if (!ok) unsatisfied.push({ name, required, provided: version });
  }
  return unsatisfied;
}

/** One line per unmet requirement, for the CLI's refusal. */
export function describeUnsatisfied(unsatisfied: Unsatisfied[], { remote, version }: { remote: string; version: string }): string {
  return unsatisfied
    .map(({ name, required, provided }) =>
      provided === null
        ? `${remote} ${version} needs ${name} ${required}, which the shell does not share`
        : `${remote} ${version} needs ${name} ${required}; the shell provides ${provided}`,
    )
    .join('\n');
}
