// `release --from <dir>`: the build is copied with its links resolved, so a release folder holds
// plain files only and the releases origin never has a link to follow.
//
// A link to a file or folder inside the build is copied as what it points to. A link pointing
// outside the build is refused, with the release: a build is webpack's own output, so such a link
// is a mistake or an attempt to publish some other file (a key, a config) under the CDN's address,
// and a published release cannot be taken back. A link to a folder holding it (a loop) is refused.
import { cpSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { DeployError } from '../errors.ts';

const within = (root: string, path: string) => path === root || path.startsWith(root + sep);

/**
 * Throws a DeployError naming the first link that leaves `root` or leads back into a folder it
 * is reached through (`chain`: the real folders from the root down to `dir`).
 */
function checkLinks(root: string, dir = root, chain = new Set([root])) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (!lstatSync(path).isSymbolicLink()) {
      if (entry.isDirectory()) checkLinks(root, path, new Set([...chain, path]));
      continue;
    }
    let target: string;
    try {
      target = realpathSync(path);
    } catch {
      throw new DeployError(`${relative(root, path)} in the build is a broken link.`);
    }
    if (!within(root, target)) {
      throw new DeployError(`${relative(root, path)} in the build links outside it (to ${target}); a release holds only the build's own files.`);
    }
    if (statSync(target).isDirectory()) {
      if (chain.has(target)) throw new DeployError(`${relative(root, path)} in the build links back to a folder holding it (a loop).`);
      checkLinks(root, target, new Set([...chain, target]));
    }
  }
}

export function copyBuild(from: string, to: string): void {
  const root = realpathSync(from);
  checkLinks(root);
  cpSync(root, to, { recursive: true, dereference: true });
}
