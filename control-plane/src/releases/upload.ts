// A release uploaded to the control-plane API (the remote's built dist/ as one tar or tar.gz):
// verified whole before anything is published (docs/releases.md, "What is verified before a
// release is published"). It is extracted into a private staging folder inside this process's
// working folder, checked, then published into the store — its row and its files in one
// transaction (docs/store.md, "Release files") — as `npm run release` does, and kept as this
// process's working copy. A refusal leaves the store as it was.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxSupport, verifyServerBuild, type VerifyOptions } from '@netnet/render-sandbox';
import site, { type DeploySettings, type MapSettings, type RuntimeSettings } from '@netnet/site';
import { DeployError, codeOf, messageOf } from '../errors.ts';
import type { Database } from '../store/database.ts';
import { publishRelease } from '../store/releases.ts';
import { folderFileHashes, servedFiles, storedFileHashes } from '../store/releaseFiles.ts';
import { extractArchive, UPLOAD_LIMITS } from './archive.ts';
import { compatibilityProblems } from './compatibilityGate.ts';
import { entryIntegrity, writeIntegrity } from './integrity.ts';
import { assertRemote, assertVersion } from '../names.ts';
import { checkCompressedCopies, checkIntegrityRecord, checkManifest, readIntegrityRecord, UploadRefused } from './verify.ts';

export { UPLOAD_LIMITS, UploadRefused };

export interface UploadResult {
  /** 'unchanged': this version was already published with exactly these files (a retried pipeline). */
  outcome: 'published' | 'unchanged';
  remote: string;
  version: string;
  /** Regular files of the release, integrity.json included. */
  files: number;
  bytes: number;
}

/** The content types an upload may have: a tar archive, or one compressed with gzip. */
const CONTENT_TYPES: Record<string, { gzip: boolean }> = {
  'application/x-tar': { gzip: false },
  'application/tar': { gzip: false },
  'application/gzip': { gzip: true },
  'application/x-gzip': { gzip: true },
};

/**
 * What an upload reads of its process's config (the API's, ../config.ts): its working folder
 * (NETNET_DEPLOY_DIR), the releases' origin and the runtime documents a server build is checked
 * with, as a member's render is given them, and the shell's manifest the compatibility gate
 * checks against (NETNET_SHELL_MANIFEST).
 */
export type UploadSettings = DeploySettings & MapSettings & RuntimeSettings & { readonly shellManifest?: string | undefined };

/** How long the server build may take to load in its render process. */
export const SERVER_BUILD_TIMEOUT_MS = 10_000;
const SERVER_ENTRY = join('server', 'remoteEntry.js');
/** The shell's render script (its server build): what every release's server code runs under. */
const SHELL_SERVER = fileURLToPath(new URL('../../../shell/dist/server/', import.meta.url));

/**
 * The server build must load and render: members' pages are rendered with it. It is the
 * publisher's code, so it is checked exactly where members' renders run it, in a render process
 * started by the render sandbox as the shell's are (its own namespaces and user, no network, no
 * environment, Node's permission model, a heap limit and a deadline), handed its release address
 * and the site's catalogue as a member's render is: loaded and initialised within `timeoutMs`,
 * then every page it exposes rendered once. A build that throws, hangs, exits, breaks its channel
 * or is not a container is refused; nothing it does reaches this process.
 */
export async function checkServerBuild(dir: string, remote: string, version: string, settings: MapSettings & RuntimeSettings, timeoutMs = SERVER_BUILD_TIMEOUT_MS): Promise<void> {
  if (!existsSync(join(SHELL_SERVER, 'renderWorker.js'))) throw new DeployError("server builds cannot be checked here: the shell's server is not built (npm run build).");
  const sandbox = sandboxSupport();
  if (!sandbox.available) throw new DeployError(`server builds cannot be checked here: ${sandbox.why}.`);
  const code = readFileSync(join(dir, SERVER_ENTRY), 'utf8');
  const entry = `${settings.deployUrl}/${remote}/${version}/mf-manifest.json`;
  try {
    const config = site.runtimeConfig(settings) as VerifyOptions['config'];
    await verifyServerBuild({ serverBuild: SHELL_SERVER, remote: remote as VerifyOptions['remote'], version, entry, code, config, loadTimeoutMs: timeoutMs });
  } catch (error) {
    throw new UploadRefused(422, `the server build (server/remoteEntry.js) ${messageOf(error)}.`);
  }
}

const STAGING_PREFIX = '.upload-';
/** A staging folder older than this was left by a process that died mid-upload. */
const STAGING_LEFT_AFTER_MS = 60 * 60 * 1000;

/** Removes the staging folders that uploads interrupted by a crash left behind. */
function sweepStaging(deployDir: string, now = Date.now()): void {
  for (const name of readdirSync(deployDir)) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const path = join(deployDir, name);
    try {
      if (now - statSync(path).mtimeMs > STAGING_LEFT_AFTER_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // Removed meanwhile by another upload's sweep.
    }
  }
}

/** The media type without its parameters, lowercased; null for none. */
const mediaType = (contentType: string | undefined) => contentType?.split(';')[0]?.trim().toLowerCase() || null;

/** The first path whose hash differs between two releases' files, or null when they are the same files. */
function firstDifference(a: Map<string, string>, b: Map<string, string>): string | null {
  for (const [path, hash] of a) if (b.get(path) !== hash) return path;
  for (const path of b.keys()) if (!a.has(path)) return path;
  return null;
}

/** A published release with these files (SHA-256 by path): the same → fine; others → 409. */
function samePublished(published: Map<string, string>, staged: Map<string, string>, remote: string, version: string): void {
  const differs = firstDifference(staged, published);
  if (differs !== null) {
    throw new UploadRefused(
      409,
      `${remote} ${version} is already published with other files (${differs} differs); versions are immutable: publish this build as a new version.`,
    );
  }
}

/** Keeps the published files as this process's working copy of the release (the store has them; a copy there already stays). */
function keepWorkingCopy(release: string, target: string): void {
  try {
    renameSync(release, target);
  } catch (error) {
    const code = codeOf(error);
    if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
  }
}

export async function publishUpload({
  remote: remoteName,
  version: versionName,
  body,
  contentType,
  browserOnly = false,
  db,
  settings,
  publishedBy,
}: {
  remote: string;
  version: string;
  /** The HTTP request body, streamed. On a refusal it is left unread from that point (answer, then close the connection). */
  body: NodeJS.ReadableStream;
  /** 'application/x-tar', or 'application/gzip' for a tar.gz; anything else → 415. */
  contentType: string | undefined;
  /** A release declared browser-only needs no server build. */
  browserOnly?: boolean;
  db: Database;
  settings: UploadSettings;
  /** Who publishes (the API's `token:<name>`): the release's published_by and its audit row. */
  publishedBy?: string;
}): Promise<UploadResult> {
  let remote: string;
  let version: string;
  try {
    remote = assertRemote(remoteName);
    version = assertVersion(versionName);
  } catch (error) {
    if (error instanceof DeployError) throw new UploadRefused(400, error.message);
    throw error;
  }
  const type = mediaType(contentType);
  const format = type === null ? undefined : CONTENT_TYPES[type];
  if (format === undefined) {
    throw new UploadRefused(
      415,
      `an upload is a tar archive of the build (Content-Type: application/x-tar, or application/gzip for a tar.gz), not ${type ?? 'a body without a Content-Type'}.`,
    );
  }
  const { deployDir } = settings;
  const label = `the archive of ${remote} ${version}`;
  const target = join(deployDir, remote, version);

  // Private (mode 0700) and inside the working folder, so the working copy moves in by a rename;
  // the releases origin never serves it (a dot name).
  mkdirSync(deployDir, { recursive: true });
  sweepStaging(deployDir);
  const staging = mkdtempSync(join(deployDir, STAGING_PREFIX));
  const release = join(staging, 'release');
  try {
    mkdirSync(release, { mode: 0o755 });
    const extracted = await extractArchive({ body, gzip: format.gzip, into: release });
    if (extracted.files === 0) throw new UploadRefused(400, `${label} holds no files.`);

    checkManifest(release, remote, version, label);
    // Every file's SHA-384, recomputed here; a record sent with the files must agree with it.
    const record = readIntegrityRecord(release, label);
    const computed = writeIntegrity(release);
    if (record !== null) checkIntegrityRecord(record, computed, label);
    const paths = servedFiles(release);
    const files = paths.length;
    const bytes = paths.reduce((sum, path) => sum + statSync(join(release, path)).size, 0);
    const result = (outcome: UploadResult['outcome']): UploadResult => ({ outcome, remote, version, files, bytes });
    const staged = folderFileHashes(release, paths);

    // Published already: the same files are a retry (nothing to check again, nothing changes);
    // other files are refused before any further work.
    const published = await storedFileHashes(db.pool, remote, version);
    if (published.size > 0) {
      samePublished(published, staged, remote, version);
      return result('unchanged');
    }

    await checkCompressedCopies(release, label);
    if (existsSync(join(release, SERVER_ENTRY))) await checkServerBuild(release, remote, version, settings);
    else if (!browserOnly) {
      throw new UploadRefused(
        422,
        `${label} has no server build (server/remoteEntry.js): publish the whole production build, or declare the release browser-only.`,
      );
    }
    const problems = compatibilityProblems(remote, version, settings.shellManifest, release);
    if (problems !== null) {
      const indented = problems.split('\n').map((line) => `  ${line}`).join('\n');
      throw new UploadRefused(
        422,
        `the compatibility gate refuses ${remote} ${version}:\n${indented}\n` +
          'Build it against the versions the shell provides, or first deploy a shell that provides what it needs.',
      );
    }

    // The row and the files in one transaction: the map never names a release the store lacks.
    let added: boolean;
    try {
      added = await publishRelease(db.pool, { remote, version, integrity: entryIntegrity(release), dir: release, publishedBy });
    } catch (error) {
      throw new Error(`${remote} ${version} was not published: the store did not take it (${messageOf(error)}).`, { cause: error });
    }
    if (!added) {
      // Another upload of this version won the race: the same files are a retry, others a conflict.
      samePublished(await storedFileHashes(db.pool, remote, version), staged, remote, version);
      return result('unchanged');
    }
    mkdirSync(join(deployDir, remote), { recursive: true });
    keepWorkingCopy(release, target);
    return result('published');
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
