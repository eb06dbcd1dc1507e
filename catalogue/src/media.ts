// The self-hosted demo clip and its poster frame, with byte ranges so a <video> can seek.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
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
  return function serveMedia(req: IncomingMessage, res: ServerResponse, name: string): boolean {
    const type = MEDIA_TYPES[name];
    if (!type) return false;
    let file;
    try {
      file = load(name);
    } catch {
      return false;
    }
    const { bytes, etag } = file;
    const headers = { 'Content-Type': type, 'Cache-Control': CACHE_MEDIA, 'Accept-Ranges': 'bytes', ETag: etag };
    if (ifNoneMatchHits(req.headers['if-none-match'], etag)) {
      res.writeHead(304, headers);
      res.end();
      return true;
    }
    const range = req.headers.range;
    // If-Range with a stale validator means "send it all" (RFC 9110 §13.1.5).
    if (range && (!req.headers['if-range'] || req.headers['if-range'] === etag)) {
      const parsed = parseRange(range, bytes.length);
      if (!parsed) {
        res.writeHead(416, { ...headers, 'Content-Range': `bytes */${bytes.length}` });
        res.end();
        return true;
      }
      const [start, end] = parsed;
      res.writeHead(206, { ...headers, 'Content-Range': `bytes ${start}-${end}/${bytes.length}`, 'Content-Length': end - start + 1 });
      res.end(bytes.subarray(start, end + 1));
      return true;
    }
    res.writeHead(200, { ...headers, 'Content-Length': bytes.length });
    res.end(bytes);
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
