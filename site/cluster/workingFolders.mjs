// Each process of the cluster has a working folder of its own, as each container has its own
// disk: its NETNET_DEPLOY_DIR, where it keeps copies of the releases it published or served. The
// store holds the releases (docs/store.md, "Release files"), so a folder is only a cache: they are
// made empty at every start, and deleting one while the cluster runs changes nothing a member sees.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { clusterDir } from './frontDoor.mjs';

/** Where the working folders are: .cluster/work/<process>/. */
export const workRoot = join(clusterDir, 'work');

/** The working folders of `names`, empty, by name. */
export function freshWorkingFolders(names) {
  rmSync(workRoot, { recursive: true, force: true });
  return Object.fromEntries(
    names.map((name) => {
      const dir = join(workRoot, name);
      mkdirSync(dir, { recursive: true });
      return [name, dir];
    }),
  );
}
