// The checks a release's files pass before they are published, shared by the two ways a release
// arrives: an upload to the control-plane API (./upload.ts) and `npm run release -- --from`
// (control-plane/bin/release.ts). One function per check, so the two paths cannot drift apart.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { DeployError, messageOf } from '../errors.ts';
import site from '@netnet/site';
import { releaseFiles } from '../store/releaseFiles.ts';

/** What an upload is answered when it is refused (the API sends it as the HTTP status). */
export type RefusalStatus = 400 | 409 | 413 | 415 | 422;

/**
 * A release refused before anything was published: `status` says why in HTTP's words — 400 the
 * request is malformed (unknown remote, bad version, not a tar archive, truncated, empty), 409 the
 * version is published with other files, 413 a size limit, 415 a content type other than tar or
 * gzip, 422 an archive that reads but fails a check (paths, links, hashes, stale copies, server
 * build, manifest, compatibility). The CLI prints it like any other DeployError.
 */
export class UploadRefused extends DeployError {
  constructor(
    readonly status: RefusalStatus,
    message: string,
  ) {
    super(message);
    this.name = 'UploadRefused';
  }
}

const sri = (content: Buffer): string => `sha384-${createHash('sha384').update(content).digest('base64')}`;

export { releaseFiles };

/** File → `sha384-…` for every regular file under `dir`, read from disk now. */
export function fileHashes(dir: string): Map<string, string> {
  return new Map(releaseFiles(dir).map((path) => [path, sri(readFileSync(join(dir, path)))]));
}

/** A release must be what it says: this remote's container, built as this version. */
export function checkManifest(dir: string, remote: string, version: string, label: string): void {
  const path = join(dir, 'mf-manifest.json');
  if (!existsSync(path)) {
    const nested = existsSync(join(dir, 'dist', 'mf-manifest.json'))
      ? ` (it holds a dist/ folder: archive the build's contents, e.g. tar -C dist -czf release.tgz .)`
      : '';
    throw new UploadRefused(422, `${label} has no mf-manifest.json: it is not a production build of a remote${nested}.`);
  }
  let manifest: { name?: unknown; metaData?: { buildInfo?: { buildVersion?: unknown } } } | null;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8')) as typeof manifest;
  } catch (error) {
    throw new UploadRefused(422, `${label}'s mf-manifest.json is not valid JSON (${messageOf(error)}).`);
  }
  if (manifest === null || typeof manifest !== 'object') throw new UploadRefused(422, `${label}'s mf-manifest.json is not a JSON object.`);
  if (manifest.name !== site.federationName(remote)) {
    throw new UploadRefused(422, `${label} holds ${String(manifest.name)}, not ${remote}.`);
  }
  const built = manifest.metaData?.buildInfo?.buildVersion;
  if (built !== version) {
    throw new UploadRefused(422, `${label} was built as version ${String(built)}, not ${version}; build it with MF_BUILD_VERSION=${version}.`);
  }
}

const decompressors = { '.br': promisify(brotliDecompress), '.gz': promisify(gunzip) } as const;

/**
 * Every precompressed copy (`x.br`, `x.gz` beside `x`) must decompress to exactly its file's bytes:
 * the releases origin serves the copy to browsers that accept it, and a stale one (the file changed
 * after webpack compressed it) fails the integrity check for every member. Decompression stops one
 * byte past the file's size, so a copy cannot expand into a bomb. A `.br`/`.gz` with no file of its
 * name beside it is an ordinary file of the release. Throws UploadRefused (422) naming the file.
 */
export async function checkCompressedCopies(dir: string, label: string): Promise<number> {
  const files = new Set(releaseFiles(dir));
  let checked = 0;
  for (const path of files) {
    const suffix = path.endsWith('.br') ? '.br' : path.endsWith('.gz') ? '.gz' : null;
    if (suffix === null) continue;
    const original = path.slice(0, -suffix.length);
    if (!files.has(original)) continue;
    const expected = readFileSync(join(dir, original));
    let actual: Buffer;
    try {
      actual = await decompressors[suffix](readFileSync(join(dir, path)), { maxOutputLength: Math.max(1, expected.length + 1) });
    } catch (error) {
      const reason = (error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE' ? `it expands past ${original}'s ${expected.length} bytes` : messageOf(error);
      throw new UploadRefused(422, `${label}: ${path} is stale or corrupt: it does not decompress to ${original} (${reason}). Rebuild, or delete the copy.`);
    }
    if (!actual.equals(expected)) {
      throw new UploadRefused(
        422,
        `${label}: ${path} is stale: it decompresses to ${actual.length} bytes that differ from ${original} (${expected.length} bytes); ` +
          `the file changed after it was compressed. Rebuild, or delete the copy.`,
      );
    }
    checked += 1;
  }
  return checked;
}

/** The integrity.json a publisher sent, or null when the release carries none. */
export function readIntegrityRecord(dir: string, label: string): Record<string, unknown> | null {
  const path = join(dir, 'integrity.json');
  if (!existsSync(path)) return null;
  if (!statSync(path).isFile()) throw new UploadRefused(422, `${label}: integrity.json is not a file.`);
  let record: unknown;
  try {
    record = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UploadRefused(422, `${label}: integrity.json is not valid JSON (${messageOf(error)}).`);
  }
  const files = record !== null && typeof record === 'object' && 'files' in record ? record.files : undefined;
  const algorithm = record !== null && typeof record === 'object' && 'algorithm' in record ? record.algorithm : 'sha384';
  if (algorithm !== 'sha384' || files === null || typeof files !== 'object' || Array.isArray(files)) {
    throw new UploadRefused(422, `${label}: integrity.json is not a record of this site ({ "algorithm": "sha384", "files": { path: "sha384-…" } }).`);
  }
  return files as Record<string, unknown>;
}

/**
 * The record a publisher sent must be the truth about the files it came with: the same files, each
 * with the SHA-384 recomputed here (`computed`, from writeIntegrity()). Throws UploadRefused (422)
 * naming the first file that disagrees.
 */
export function checkIntegrityRecord(record: Record<string, unknown>, computed: Record<string, string>, label: string): void {
  for (const [path, hash] of Object.entries(computed)) {
    const claimed = record[path];
    if (claimed === undefined) throw new UploadRefused(422, `${label}: integrity.json has no hash for ${path}, which the release holds.`);
    if (claimed !== hash) {
      throw new UploadRefused(422, `${label}: ${path} does not match integrity.json: its bytes hash to ${hash}, the record says ${String(claimed)}.`);
    }
  }
  for (const path of Object.keys(record)) {
    if (!(path in computed)) throw new UploadRefused(422, `${label}: integrity.json lists ${path}, which the release does not hold.`);
  }
}
