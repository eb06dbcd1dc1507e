// A release's size and whether its files are still the ones it was published with, for the
// console's list of releases: every file its integrity.json lists is hashed again and compared.
// Releases are immutable, so an answer is kept for a minute (a file altered on the origin shows
// within that minute).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { messageOf } from '../../errors.ts';

export interface ReleaseFiles {
  /** Bytes of every file the release lists. */
  bytes: number | null;
  files: number | null;
  /** 'verified', 'no record' (published before releases had one), or what is wrong. */
  integrity: string;
  verified: boolean;
}

const KEEP_MS = 60_000;
const cache = new Map<string, { at: number; value: ReleaseFiles }>();

function check(dir: string): ReleaseFiles {
  const record = join(dir, 'integrity.json');
  if (!existsSync(dir)) return { bytes: null, files: null, integrity: 'its folder is missing from the origin', verified: false };
  if (!existsSync(record)) return { bytes: null, files: null, integrity: 'no record (published before releases had one)', verified: false };
  let files: Record<string, unknown>;
  try {
    files = (JSON.parse(readFileSync(record, 'utf8')) as { files?: Record<string, unknown> }).files ?? {};
  } catch (error) {
    return { bytes: null, files: null, integrity: `integrity.json cannot be read (${messageOf(error)})`, verified: false };
  }
  let bytes = 0;
  for (const [name, expected] of Object.entries(files)) {
    const path = join(dir, name);
    if (!existsSync(path)) return { bytes: null, files: null, integrity: `${name} is missing`, verified: false };
    const content = readFileSync(path);
    bytes += statSync(path).size;
    if (`sha384-${createHash('sha384').update(content).digest('base64')}` !== expected) {
      return { bytes, files: Object.keys(files).length, integrity: `${name} differs from what was published`, verified: false };
    }
  }
  return { bytes, files: Object.keys(files).length, integrity: 'verified', verified: true };
}

/** `deployDir`: the origin folder (NETNET_DEPLOY_DIR), where each release has its folder (../../releases/originFolder.ts). */
export function releaseFiles(remote: string, version: string, deployDir: string, now = Date.now()): ReleaseFiles {
  const dir = join(deployDir, remote, version);
  const kept = cache.get(dir);
  if (kept && now - kept.at < KEEP_MS) return kept.value;
  const value = check(dir);
  cache.set(dir, { at: now, value });
  return value;
}
