// Files of one folder, answered as a CDN would, and never anything outside that folder.
//
// Written here rather than taken from sirv or @fastify/static (send): neither resolves symbolic
// links before serving (a link inside the folder could name any file of the machine), and sirv
// tested nothing before decoding, so `%2e%2e` segments got through an allow-list. Here the path is
// decoded once, refused if it could name anything but a plain file of the folder, and the file
// found is checked again by its real path (links resolved).
import { createReadStream, type Stats } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, posix, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { lookup } from 'mrmime';
import { acceptableEncodings, type Coding } from '@netnet/server-kit/encoding';

/**
 * The request path decoded once, or null when it must be refused: not starting with "/",
 * undecodable, an encoded "/" or "\" (a separator hidden from the checks), NUL, a backslash,
 * or any segment starting with "." — ".", "..", dotfiles and the release tool's staging folders.
 * Empty segments ("//") collapse. A double-encoded "%252e" stays the literal name "%2e".
 */
export function safePath(url = '/'): string | null {
  const raw = url.split('?')[0] ?? '';
  if (!raw.startsWith('/') || /%(2f|5c|00)/i.test(raw) || raw.includes('\\')) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  if (decoded.split('/').some((segment) => segment.startsWith('.'))) return null;
  return posix.normalize(decoded);
}

export interface FoundFile {
  /** The path asked for, as served (a folder's index.html, the SPA's index.html). */
  name: string;
  real: string;
  stats: Stats;
  encoding: Coding | null;
}

/** The real path of a plain file inside `realRoot` (links resolved), or null. */
async function confined(realRoot: string, file: string): Promise<{ real: string; stats: Stats } | null> {
  try {
    const real = await realpath(file);
    if (!real.startsWith(realRoot + sep)) return null;
    const stats = await stat(real);
    return stats.isFile() ? { real, stats } : null;
  } catch {
    return null; // missing, unreadable or a dangling link: not found
  }
}

const SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };

// A last segment with an extension names a file: no SPA fallback for a missing script.
export const LOOKS_LIKE_FILE = /\/[^/]+\.\w+$/;

/**
 * Finds what answers `path` (from safePath) in the folder whose real path is `realRoot`: the file,
 * a folder's index.html, or with `spa` the root index.html for page routes. Prefers a precompressed
 * .br/.gz sibling the client accepts. Null when nothing inside the folder does.
 */
export async function findFile(realRoot: string, path: string, { acceptEncoding = '', spa = false } = {}): Promise<FoundFile | null> {
  const names = path.endsWith('/') ? [`${path}index.html`] : [path, `${path}/index.html`];
  if (spa && !LOOKS_LIKE_FILE.test(path)) names.push('/index.html');
  for (const name of names) {
    const plain = await confined(realRoot, join(realRoot, name));
    if (!plain) continue;
    for (const encoding of acceptableEncodings(acceptEncoding)) {
      const packed = await confined(realRoot, join(realRoot, name + SUFFIX[encoding]));
      if (packed) return { name, ...packed, encoding };
    }
    return { name, ...plain, encoding: null };
  }
  return null;
}

/** Answers with a file from findFile: validators, 304, HEAD without a body. `body`: its bytes, when they are in memory already. */
export function sendFile(request: FastifyRequest, reply: FastifyReply, file: FoundFile, extraHeaders: Record<string, string> = {}, body?: Buffer) {
  let type = lookup(file.name) ?? 'application/octet-stream';
  if (type === 'text/html') type += '; charset=utf-8';
  const etag = `W/"${file.stats.size}-${file.stats.mtime.getTime()}"`;
  reply.headers({
    ...extraHeaders,
    'Content-Type': type,
    ETag: etag,
    'Last-Modified': file.stats.mtime.toUTCString(),
    Vary: 'Accept-Encoding',
    ...(file.encoding && { 'Content-Encoding': file.encoding }),
  });
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  reply.header('Content-Length', file.stats.size);
  if (request.method === 'HEAD') return reply.code(200).send();
  return reply.code(200).send(body ?? createReadStream(file.real));
}
