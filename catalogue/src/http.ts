// Writing responses: memoised bodies with their compressed forms and ETag, content negotiation.
import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { chooseEncoding, type Coding } from '@netnet/server-kit/encoding';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { etagOf, ifNoneMatchHits } from './etag';
import { errorJson, type TmdbError } from './errors';

export const JSON_TYPE = 'application/json;charset=utf-8';
export const CACHE_LISTS = 'public, max-age=300';
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';

/** Below this, compression costs more than it saves. */
const COMPRESS_MIN_BYTES = 1024;

type Encoding = Coding;

/**
 * A response body kept ready to send: the bytes, a strong ETag, and each compressed form made
 * once on first demand — so a cached path costs a Map lookup and a write.
 */
export class Body {
  readonly raw: Buffer;
  private tag: string | undefined;
  private readonly encoded: Partial<Record<Encoding, Buffer>> = {};

  /** `etag`: when the caller knows one (cheaper than hashing the bytes). */
  constructor(
    content: string | Buffer,
    readonly contentType: string,
    etag?: string,
  ) {
    this.raw = typeof content === 'string' ? Buffer.from(content) : content;
    this.tag = etag;
  }

  get etag(): string {
    return (this.tag ??= etagOf(this.raw));
  }

  get bytes(): number {
    return this.raw.length;
  }

  as(encoding: Encoding | null): Buffer {
    if (!encoding || this.raw.length < COMPRESS_MIN_BYTES) return this.raw;
    let buffer = this.encoded[encoding];
    if (!buffer) {
      buffer =
        encoding === 'br'
          ? // Quality 5: most of brotli's gain at a fraction of quality 11's time.
            brotliCompressSync(this.raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } })
          : gzipSync(this.raw, { level: 6 });
      this.encoded[encoding] = buffer;
    }
    return buffer;
  }
}

const isCompressible = (type: string) => type.startsWith('application/json') || type.startsWith('image/svg') || type.startsWith('text/');

/** Sends `body` (or 304 when the client holds it), compressed as the client allows. */
export function send(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: Body,
  headers: OutgoingHttpHeaders = {},
): FastifyReply {
  const out: OutgoingHttpHeaders = { 'Content-Type': body.contentType, ...headers };
  if (status === 200) {
    out.ETag = body.etag;
    if (ifNoneMatchHits(request.headers['if-none-match'], body.etag)) return reply.code(304).headers(out).send();
  }
  let payload = body.raw;
  if (isCompressible(body.contentType)) {
    out.Vary = appendVary(appendVary(reply.getHeader('Vary'), headers.Vary), 'Accept-Encoding');
    // Accept-Encoding read as every Netnet server reads it (q=0 refuses, `*`, weights; brotli on a tie).
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    payload = body.as(encoding);
    if (payload !== body.raw) out['Content-Encoding'] = encoding!;
  }
  return reply.code(status).headers(out).send(payload);
}

const errorBodies = new WeakMap<TmdbError, Body>();

export function sendError(request: FastifyRequest, reply: FastifyReply, error: TmdbError, headers: OutgoingHttpHeaders = {}): FastifyReply {
  let body = errorBodies.get(error);
  if (!body) errorBodies.set(error, (body = new Body(errorJson(error), JSON_TYPE)));
  return send(request, reply, error.httpStatus, body, { 'Cache-Control': 'no-store', ...headers });
}

type HeaderValue = number | string | string[] | undefined;

function appendVary(current: HeaderValue, field: HeaderValue): string {
  const text = (value: HeaderValue) => (Array.isArray(value) ? value.join(', ') : value ? String(value) : '');
  return [text(current), text(field)].filter(Boolean).join(', ');
}
