// Entity tags for every response the service sends (JSON answers, artwork, the demo clip).
import { createHash } from 'node:crypto';

/** A strong tag for these bytes: 22 base64url characters of their SHA-1, quoted. */
export function etagOf(bytes: Buffer): string {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
}

/** One entity-tag, weak or not, then a comma or the end (RFC 9110 §8.8.3: etagc excludes only '"'). */
const LIST_ITEM = /[ \t]*(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/y;

/**
 * Whether If-None-Match names this representation. It uses the weak comparison (RFC 9110
 * §13.1.2): `W/"x"` and `"x"` are the same tag, since a 304 only confirms the cached copy is still
 * good. A malformed header matches nothing, so the client gets the full answer.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const wanted = opaque(etag);
  LIST_ITEM.lastIndex = 0;
  while (LIST_ITEM.lastIndex < header.length) {
    const match = LIST_ITEM.exec(header);
    if (!match) return false;
    if (match[1] === wanted) return true;
  }
  return false;
}

/** The quoted part of a tag without its quotes, W/ or not. */
const opaque = (etag: string) => etag.replace(/^W\//, '').slice(1, -1);
