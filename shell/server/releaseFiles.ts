// The releases origin, answered by every shell instance (docs/store.md#release-files):
// `GET /releases/<remote>/<version>/<file>` — and every path of the releases port under `npm start`.
// A release lives in the store (docs/store.md, "Release files"); the instance answers from its
// working folder, a copy it makes from the store the first time a release is asked for. So any
// instance serves any release, whoever published it and wherever, and deleting the folder
// changes nothing but one slower answer. The instance keeps its hot hashed files in memory (./hotFiles.ts).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isVersion } from '@netnet/rollout';
import type { Queryable } from '@netnet/control-plane/instance';
import type { HotFiles } from './hotFiles.ts';

/** What the HTTP server needs to answer releases' files (./httpServer.ts). */
export interface ReleaseFiles {
  /** Where the releases' paths start: '/releases' on an instance's own port, '' on a releases port. */
  prefix: '' | `/${string}`;
  /** The working folder: `<dir>/<remote>/<version>/<file>`. */
  dir: string;
  /** True once the store lists the release and its working copy is in `dir`. */
  has(remote: string, version: string): Promise<boolean>;
  /** Hashed files kept in memory (./hotFiles.ts); none: every answer is read from `dir`. */
  hot?: HotFiles;
}

export interface ReleaseFilesOptions {
  db: Queryable;
  dir: string;
  remotes: readonly string[];
  /** Whether the instance's copy of the store's list (its live map) has the release already. */
  listed(remote: string, version: string): boolean;
  materialize(db: Queryable, dir: string, remote: string, version: string): Promise<boolean>;
}

/** The `has` of an instance: its live list first, else the store (a release published a moment ago). */
export function releaseFilesFrom({ db, dir, remotes, listed, materialize }: ReleaseFilesOptions): (remote: string, version: string) => Promise<boolean> {
  // One copy at a time per release, however many requests ask for it at once.
  const making = new Map<string, Promise<boolean>>();
  const inStore = async (remote: string, version: string) =>
    ((await db.query('SELECT 1 FROM releases WHERE remote = $1 AND version = $2', [remote, version])).rowCount ?? 0) > 0;
  return async (remote, version) => {
    if (!remotes.includes(remote) || !isVersion(version)) return false;
    if (!listed(remote, version) && !(await inStore(remote, version))) return false;
    if (existsSync(join(dir, remote, version))) return true;
    const key = `${remote} ${version}`;
    let made = making.get(key);
    if (!made) {
      made = materialize(db, dir, remote, version).finally(() => making.delete(key));
      making.set(key, made);
    }
    return made;
  };
}
