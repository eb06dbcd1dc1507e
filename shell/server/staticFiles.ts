// Files of one folder, answered as a CDN would, and never anything outside that folder.
//
// Written here rather than taken from sirv: sirv tested nothing before decoding, so an allow-list
// checked on the raw path let `%2e%2e` segments through, and it followed symbolic links out of
// its folder. Here the path is decoded once, refused if it could name anything but a plain file
// of the folder, and the file found is checked again by its real path (links resolved).
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, posix, sep } from 'node:path';
import { lookup } from 'mrmime';

/**
 * The request path decoded once, or null when it must be refused: not starting with "/",
 * undecodable, an encoded "/" or "\" (a separator hidden from the checks), NUL, a backslash,
 * or any segment starting with "." — ".", "..", dotfiles and the release tool's staging folders.
 * Empty segments ("//") collapse. A double-encoded "%252e" stays the literal name "%2e".
 */
export function safePath(url = '/') {
  const raw = url.split('?')[0];
  if (!raw.startsWith('/') || /%(2f|5c|00)/i.test(raw) || raw.includes('\\')) return null;
  let decoded;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  if (decoded.split('/').some((segment) => segment.startsWith('.'))) return null;
  return posix.normalize(decoded);
}

/** The real path of a plain file inside `realRoot` (links resolved), or null. */
async function confined(realRoot, file) {
  try {
    const real = await realpath(file);
    if (!real.startsWith(realRoot + sep)) return null;
    const stats = await stat(real);
    return stats.isFile() ? { real, stats } : null;
  } catch {
    return null; // missing, unreadable or a dangling link: not found
  }
}

const PRECOMPRESSED = [
  ['.br', 'br'],
  ['.gz', 'gzip'],
];
const WEIGHT = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * The precompressed siblings the client accepts, best first, from Accept-Encoding as RFC 9110
 * (12.5.3) reads it: q=0 refuses a coding outright, `*` stands for the codings not named, the
 * heaviest wins and brotli goes first on a tie. An element with a malformed weight counts for nothing.
 * (The shell's server reads it the same way for its pages: shell/src/server/encoding.ts.)
 */
export function acceptedCodings(header = '') {
  const weights = new Map();
  for (const element of String(header).split(',')) {
    const [rawName = '', ...params] = element.split(';').map((part) => part.trim());
    const name = rawName.toLowerCase() === 'x-gzip' ? 'gzip' : rawName.toLowerCase();
    if (!name) continue;
    let weight = 1;
    let malformed = false;
    for (const param of params) {
      const match = WEIGHT.exec(param.replace(/\s+/g, ''));
      if (match) weight = Number(match[1]);
      else if (/^q=/i.test(param)) malformed = true;
    }
    if (!malformed) weights.set(name, Math.max(weight, weights.get(name) ?? 0));
  }
  const weightOf = ([, coding]) => weights.get(coding) ?? weights.get('*') ?? 0;
  return PRECOMPRESSED.filter((entry) => weightOf(entry) > 0).sort((a, b) => weightOf(b) - weightOf(a));
}

// A last segment with an extension names a file: no SPA fallback for a missing script.
export const LOOKS_LIKE_FILE = /\/[^/]+\.\w+$/;

/**
 * Finds what answers `path` (from safePath) in the folder whose real path is `realRoot`: the file,
 * a folder's index.html, or with `spa` the root index.html for page routes. Prefers a precompressed
 * .br/.gz sibling the client accepts. Null when nothing inside the folder does.
 */
export async function findFile(realRoot, path, { acceptEncoding = '', spa = false } = {}) {
  const names = path.endsWith('/') ? [`${path}index.html`] : [path, `${path}/index.html`];
  if (spa && !LOOKS_LIKE_FILE.test(path)) names.push('/index.html');
  for (const name of names) {
    const plain = await confined(realRoot, join(realRoot, name));
    if (!plain) continue;
    for (const [suffix, encoding] of acceptedCodings(acceptEncoding)) {
      const packed = await confined(realRoot, join(realRoot, name + suffix));
      if (packed) return { name, ...packed, encoding };
    }
    return { name, ...plain, encoding: null };
  }
  return null;
}

/** Answers with a file from findFile: validators, 304, HEAD without a body. */
export function sendFile(req, res, file, extraHeaders = {}) {
  let type = lookup(file.name) ?? 'application/octet-stream';
  if (type === 'text/html') type += '; charset=utf-8';
  const etag = `W/"${file.stats.size}-${file.stats.mtime.getTime()}"`;
  const headers = {
    ...extraHeaders,
    'Content-Type': type,
    ETag: etag,
    'Last-Modified': file.stats.mtime.toUTCString(),
    Vary: 'Accept-Encoding',
    ...(file.encoding && { 'Content-Encoding': file.encoding }),
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  res.writeHead(200, { ...headers, 'Content-Length': file.stats.size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file.real)
    .on('error', () => res.destroy())
    .pipe(res);
}
