// Subresource integrity of a release: the SHA-384 of every file it publishes, recorded in
// integrity.json inside the release when it is published. /remotes.json hands the browser the
// hashes of the files its federation runtime loads first — the manifest, the container and
// integrity.json itself — and the shell takes the rest from that integrity.json.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Integrity } from '../store/releases.ts';

const INTEGRITY_FILE = 'integrity.json';

/** The files the shell's federation runtime loads itself; everything else is loaded by the entry. */
const ENTRY_FILES = ['mf-manifest.json', 'remoteEntry.js'];
/** The server build's container, which the shell's server loads (releases before server rendering have none). */
const SERVER_ENTRY = 'server/remoteEntry.js';

const sri = (content: Buffer): string => `sha384-${createHash('sha384').update(content).digest('base64')}`;

/** Hashes every regular file of a release folder (links are not files of a release) into integrity.json. */
export function writeIntegrity(dir: string): Integrity {
  const files: Integrity = {};
  const paths = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath ?? entry.path, entry.name)).split(sep).join('/'))
    .filter((path) => path !== INTEGRITY_FILE)
    .sort();
  for (const path of paths) files[path] = sri(readFileSync(join(dir, path)));
  writeFileSync(join(dir, INTEGRITY_FILE), `${JSON.stringify({ algorithm: 'sha384', files }, null, 2)}\n`);
  return files;
}

// Releases are immutable, so their hashes are read once per process: a file altered on the
// server later cannot change what the map vouches for.
const cache = new Map<string, Integrity | null>();

/**
 * The hashes the map gives for a release: its entry files and integrity.json, or null for a
 * release published without a record (before releases had one).
 */
export function entryIntegrity(dir: string): Integrity | null {
  const cached = cache.get(dir);
  if (cached !== undefined) return cached;
  const path = join(dir, INTEGRITY_FILE);
  let result: Integrity | null = null;
  if (existsSync(path)) {
    const record = readFileSync(path);
    const { files } = JSON.parse(record.toString('utf8')) as { files?: Record<string, unknown> | null };
    const hashOf = (name: string) => {
      const hash = files?.[name];
      return typeof hash === 'string' ? hash : undefined;
    };
    if (ENTRY_FILES.every((name) => hashOf(name) !== undefined)) {
      result = {};
      for (const name of [...ENTRY_FILES, SERVER_ENTRY]) {
        const hash = hashOf(name);
        if (hash !== undefined) result[name] = hash;
      }
      result[INTEGRITY_FILE] = sri(record);
    }
  }
  cache.set(dir, result);
  return result;
}
