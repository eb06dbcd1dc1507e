// The self-hosted demo clip and its poster frame, with byte ranges so a <video> can seek.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { etagOf, ifNoneMatchHits } from './etag';

/** Only these files are served: a name from the URL never reaches the file system. */
const MEDIA_TYPES: Record<string, string> = {
  'demo-clip.mp4': 'video/mp4',
  'demo-clip.jpg': 'image/jpeg',
};

// A week: long enough to spare the network, short enough that a regenerated clip shows up.
const CACHE_MEDIA = 'public, max-age=604800';

/** Source (catalogue/src) and build (catalogue/dist) both sit beside catalogue/media. */
export const DEFAULT_MEDIA_DIR = join(__dirname, '..', 'media');

export function createMediaHandler(mediaDir: string) {
  const files = new Map<string, { bytes: Buffer; etag: string }>();

  const load = (name: string) => {
    let file = files.get(name);
    if (!file) {
      const bytes = readFileSync(join(mediaDir, name));
      file = { bytes, etag: etagOf(bytes) };
      files.set(name, file);
    }
    return file;
  };

  /** Returns false when the name is not a media file (the caller answers 404). */
  return function serveMedia(request: FastifyRequest, reply: FastifyReply, name: string): boolean {
    const type = Object.hasOwn(MEDIA_TYPES, name) ? MEDIA_TYPES[name] : undefined;
    if (!type) return false;
    let file;
    try {
      file = load(name);
    } catch {
      return false;
    }
    const { bytes, etag } = file;
    reply.headers({ 'Content-Type': type, 'Cache-Control': CACHE_MEDIA, 'Accept-Ranges': 'bytes', ETag: etag });
    const { range, 'if-none-match': ifNoneMatch, 'if-range': ifRange } = request.headers;
    if (ifNoneMatchHits(ifNoneMatch, etag)) {
      reply.code(304).send();
      return true;
    }
    // If-Range with a stale validator means "send it all" (RFC 9110 §13.1.5).
    if (range && (!ifRange || ifRange === etag)) {
      const parsed = parseRange(range, bytes.length);
      if (!parsed) {
        reply.code(416).header('Content-Range', `bytes */${bytes.length}`).send();
        return true;
      }
      const [start, end] = parsed;
      reply.code(206).header('Content-Range', `bytes ${start}-${end}/${bytes.length}`).send(bytes.subarray(start, end + 1));
      return true;
    }
    reply.code(200).send(bytes);
    return true;
  };
}

/** One byte range (browsers ask for one); null when unsatisfiable or malformed. */
export function parseRange(header: string, size: number): [number, number] | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return null;
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start <= end && start < size ? [start, end] : null;
}
