// Writes that survive a crash: the release tooling's rollout file and the release-health store.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** Puts a folder's entries (a new or renamed file) on disk. */
export function fsyncFolder(dir) {
  const folder = openSync(dir, 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}

/**
 * Writes beside the file and renames over it: a reader never sees half a file. The content is on
 * disk before the rename (fsync of the file) and the rename before this returns (fsync of the
 * folder), so a crash leaves the old file or the new one.
 */
export function writeFileDurably(path, text) {
  const temporary = `${path}.${process.pid}.tmp`;
  const file = openSync(temporary, 'w');
  try {
    writeSync(file, text);
    fsyncSync(file);
  } finally {
    closeSync(file);
  }
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  fsyncFolder(dirname(path));
}
