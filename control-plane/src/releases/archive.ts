// Safe extraction of an uploaded release (a tar archive, gzip-compressed or not) into a fresh,
// private folder. Everything is checked while the bytes stream in, before they reach the disk:
// the body's size, its size once decompressed, each entry's declared size against the per-file
// and total limits (a tar header claiming 2 GB is refused from its 512 bytes), the number of
// entries, and each entry's path and kind. Only regular files and folders are written, each
// created anew (O_EXCL) under the folder: no `..`, no absolute path, no link of either kind, no
// device or FIFO, nothing written outside it.
import { mkdir, open } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import { codeOf, messageOf } from '../errors.ts';
import { UploadRefused } from './verify.ts';

const MiB = 1024 * 1024;

/**
 * The limits of one upload. A remote's production build is about 3 MB in 90 files today; these
 * leave room for twenty times that and no more.
 */
export const UPLOAD_LIMITS = Object.freeze({
  /** The request body as sent, and again the tar stream once decompressed (headers and padding included). */
  archiveBytes: 80 * MiB,
  /** All files' sizes added up. */
  totalBytes: 64 * MiB,
  /** One file. */
  fileBytes: 16 * MiB,
  /** Files and folders in the archive. */
  entries: 2000,
  /** A path inside the release, in UTF-8 bytes, and one of its segments. */
  pathBytes: 512,
  segmentBytes: 255,
});

export type UploadLimits = typeof UPLOAD_LIMITS;

export interface Extracted {
  /** Regular files written. */
  files: number;
  /** Their bytes. */
  bytes: number;
}

const megabytes = (bytes: number) => `${Math.round((bytes / MiB) * 10) / 10} MiB`;
// Shown in messages: a hostile name is quoted as JSON, so no control character reaches a terminal.
const quoted = (name: string) => JSON.stringify(name.length > 200 ? `${name.slice(0, 200)}…` : name);

/** Counts the bytes that pass and refuses (413) the stream once they exceed `limit`. */
function byteLimit(limit: number, refusal: () => UploadRefused, first?: (chunk: Buffer) => void): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      if (seen === 0 && chunk.length > 0) first?.(chunk);
      seen += chunk.length;
      if (seen > limit) done(refusal());
      else done(null, chunk);
    },
  });
}

/** The entry's path inside the release, `/`-separated, or a refusal (422) saying what is wrong with it. */
export function checkedPath(name: string, limits: UploadLimits = UPLOAD_LIMITS): string {
  if ([...name].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) throw new UploadRefused(422, `the entry ${quoted(name)} has a control character in its name.`);
  if (name.includes('\\')) throw new UploadRefused(422, `the entry ${quoted(name)} has a backslash in its name; paths in a release use "/".`);
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) {
    throw new UploadRefused(422, `the entry ${quoted(name)} is an absolute path; every path in the archive is relative to the build's root.`);
  }
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new UploadRefused(422, `the entry ${quoted(name)} climbs out of the release with "..".`);
  const path = segments.join('/');
  if (Buffer.byteLength(path) > limits.pathBytes) {
    throw new UploadRefused(422, `the entry ${quoted(name)} has a path longer than ${limits.pathBytes} bytes.`);
  }
  if (segments.some((segment) => Buffer.byteLength(segment) > limits.segmentBytes)) {
    throw new UploadRefused(422, `the entry ${quoted(name)} has a name longer than ${limits.segmentBytes} bytes.`);
  }
  return path;
}

/** Why an entry that is not a regular file or a folder is refused. */
function kindRefusal(header: Header): UploadRefused {
  const name = quoted(header.name);
  const only = 'a release holds regular files and folders only.';
  switch (header.type) {
    case 'symlink':
      return new UploadRefused(422, `the entry ${name} is a symbolic link (to ${quoted(header.linkname)}); ${only}`);
    case 'link':
      return new UploadRefused(422, `the entry ${name} is a hard link (to ${quoted(header.linkname)}); ${only}`);
    case 'character-device':
    case 'block-device':
      return new UploadRefused(422, `the entry ${name} is a ${header.type.replace('-', ' ')} file; ${only}`);
    case 'fifo':
      return new UploadRefused(422, `the entry ${name} is a FIFO (named pipe); ${only}`);
    case 'contiguous-file':
      return new UploadRefused(422, `the entry ${name} is a contiguous file (tar type 7); ${only}`);
    default:
      return new UploadRefused(422, `the entry ${name} is of a kind this server does not accept (a GNU sparse file, a volume label or an unknown tar type); ${only}`);
  }
}

/** A stream or tar error as the refusal the publisher gets; anything else (the disk, a bug) is thrown as it is. */
function refusalOf(error: unknown, gzip: boolean, gzipped: boolean): unknown {
  if (error instanceof UploadRefused) return error;
  const code = codeOf(error);
  const message = messageOf(error);
  if (code === 'Z_BUF_ERROR' || /unexpected end of (file|data)/i.test(message)) {
    return new UploadRefused(400, `the archive is truncated: it ends in the middle of ${gzip ? 'its gzip stream or ' : ''}an entry.`);
  }
  if (code === 'Z_DATA_ERROR') return new UploadRefused(400, `the body is not gzip data (${message}); send a tar archive compressed with gzip, or an uncompressed one as application/x-tar.`);
  if (!gzip && gzipped) return new UploadRefused(400, 'the body is gzip-compressed, not a tar archive: send a tar.gz as application/gzip.');
  if (/invalid tar header/i.test(message) || message === 'Invalid header') {
    return new UploadRefused(400, `the ${gzip ? 'decompressed body' : 'body'} is not a tar archive (${message}).`);
  }
  if (message === 'Header exceeds max size') return new UploadRefused(413, 'the archive has an extended (pax or GNU long-name) header over 4 MiB.');
  if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') {
    return new UploadRefused(422, `the archive holds two entries at one path, or a file where a folder is expected (${message}).`);
  }
  return error;
}

/**
 * Extracts the tar archive streamed in `body` into the existing, empty folder `into`. Resolves
 * when every entry is on disk; rejects with an UploadRefused (and stops reading `body`) at the
 * first problem. On a refusal `body` is left unread from that point: neither destroyed nor
 * drained, so the caller can still answer on its connection (and should close it).
 */
export function extractArchive({
  body,
  gzip,
  into,
  limits = UPLOAD_LIMITS,
}: {
  body: NodeJS.ReadableStream;
  gzip: boolean;
  into: string;
  limits?: UploadLimits;
}): Promise<Extracted> {
  // Whether the body starts as gzip does (1f 8b), to tell a tar.gz sent as a plain tar what it is.
  let gzipped = false;
  const sent = byteLimit(
    limits.archiveBytes,
    () => new UploadRefused(413, `the archive is larger than ${megabytes(limits.archiveBytes)}.`),
    (first) => (gzipped = first[0] === 0x1f && first[1] === 0x8b),
  );

  const inflate = gzip ? createGunzip() : null;
  const expanded = byteLimit(
    limits.archiveBytes,
    () => new UploadRefused(413, `the archive expands past ${megabytes(limits.archiveBytes)} once decompressed (a compression bomb, or a build far larger than a remote's).`),
  );
  const tar = extract();
  const paths = new Set<string>();
  const result: Extracted = { files: 0, bytes: 0 };
  let entries = 0;
  let declared = 0;
  let current: Promise<void> = Promise.resolve();

  async function writeEntry(header: Header, stream: NodeJS.ReadableStream & AsyncIterable<Buffer>): Promise<void> {
    const path = checkedPath(header.name, limits);
    if (header.type !== 'file' && header.type !== 'directory') throw kindRefusal(header);
    // A sparse file in pax's format is a type-0 entry holding a map of its holes, marked by its pax records.
    const pax = header.pax !== null && typeof header.pax === 'object' ? (header.pax as Record<string, unknown>) : {};
    if (Object.keys(pax).some((key) => key.startsWith('GNU.sparse.'))) {
      const size = pax['GNU.sparse.realsize'] ?? pax['GNU.sparse.size'];
      throw new UploadRefused(
        422,
        `the entry ${quoted(String(pax['GNU.sparse.name'] ?? header.name))} is a sparse file${size === undefined ? '' : ` of ${String(size)} bytes`}; a release holds regular files and folders only.`,
      );
    }
    entries += 1;
    if (entries > limits.entries) throw new UploadRefused(413, `the archive holds more than ${limits.entries} files and folders.`);
    if (header.type === 'directory') {
      if (path !== '') await mkdir(join(into, path), { recursive: true, mode: 0o755 });
      stream.resume();
      return;
    }
    if (path === '') throw new UploadRefused(422, `the entry ${quoted(header.name)} is a file without a name.`);
    if (paths.has(path)) throw new UploadRefused(422, `the archive holds ${quoted(path)} twice.`);
    paths.add(path);
    if (header.size > limits.fileBytes) {
      throw new UploadRefused(413, `${quoted(path)} is ${header.size} bytes; a file of a release may hold at most ${megabytes(limits.fileBytes)}.`);
    }
    declared += header.size;
    if (declared > limits.totalBytes) {
      throw new UploadRefused(413, `the archive's files add up to more than ${megabytes(limits.totalBytes)} (at ${quoted(path)}).`);
    }
    const slash = path.lastIndexOf('/');
    if (slash > 0) await mkdir(join(into, path.slice(0, slash)), { recursive: true, mode: 0o755 });
    const file = await open(join(into, path), 'wx', 0o644);
    try {
      for await (const chunk of stream) await file.write(chunk);
    } finally {
      await file.close();
    }
    result.files += 1;
    result.bytes += header.size;
  }

  return new Promise<Extracted>((resolve, reject) => {
    let settled = false;
    let ended = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      body.unpipe(sent as unknown as NodeJS.WritableStream);
      for (const stream of [sent, inflate, expanded]) stream?.destroy();
      tar.destroy();
      // Settled only once the entry being written has let go of the folder (its stream is
      // destroyed with the archive's), so the caller can remove the folder with nothing recreating it.
      const refusal = refusalOf(error, gzip, gzipped);
      current.then(
        () => reject(refusal),
        () => reject(refusal),
      );
    };
    body.on('error', (error: unknown) => fail(new UploadRefused(400, `the upload broke off (${messageOf(error)}).`)));
    body.on('aborted', () => fail(new UploadRefused(400, 'the upload broke off before its end.')));
    body.on('end', () => (ended = true));
    body.on('close', () => {
      if (!ended) fail(new UploadRefused(400, 'the upload broke off before its end.'));
    });
    for (const stream of [sent, inflate, expanded]) stream?.on('error', fail);
    tar.on('error', fail);
    tar.on('entry', (header, stream, next) => {
      current = writeEntry(header, stream as unknown as NodeJS.ReadableStream & AsyncIterable<Buffer>);
      current.then(() => next(), fail);
    });
    tar.on('finish', () => {
      current.then(() => {
        if (settled) return;
        settled = true;
        resolve(result);
      }, fail);
    });
    const decompressed = inflate ? sent.pipe(inflate).pipe(expanded) : sent.pipe(expanded);
    decompressed.pipe(tar as unknown as NodeJS.WritableStream);
    body.pipe(sent);
  });
}
