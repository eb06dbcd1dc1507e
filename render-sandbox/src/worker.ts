import { Socket } from 'node:net';
import { encodeFrame, FrameReader } from './frames.ts';
import { MAX_TO_WORKER_BYTES, type FetchedMessage, type FromWorker, type LoadMessage, type RenderMessage, type ToWorker } from './protocol.ts';

// The render process's side of its channel (docs/sandbox.md): frames from the server on stdin,
// frames to it on descriptor 3. The process has no network, so this also puts a `fetch` in place
// that asks the server for catalogue answers; what the server will not fetch fails as an
// unreachable network does, and a page renders it as loading, for the browser to ask.

export type { LoadMessage, RenderMessage } from './protocol.ts';

export interface RenderProcessHandlers {
  load(message: LoadMessage): void;
  render(message: RenderMessage): void;
}

/** Null-body statuses: a Response with one of these takes no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

const urlOf = (input: string | URL | Request) => (typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/** Opens the channel: returns how to send to the server; `handlers` get what it sends. */
export function openServerChannel(handlers: RenderProcessHandlers): { send(message: FromWorker, written?: () => void): void } {
  const out = new Socket({ fd: 3, readable: false, writable: true });
  const send = (message: FromWorker, written?: () => void) => void out.write(encodeFrame(message), written);
  const pending = new Map<number, { resolve(answer: FetchedMessage): void; reject(error: Error): void }>();
  let nextId = 0;

  globalThis.fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method !== 'GET') throw new TypeError('fetch failed', { cause: new Error('a render process makes catalogue GETs only') });
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    signal?.throwIfAborted();
    const id = (nextId += 1);
    const answer = await new Promise<FetchedMessage>((resolve, reject) => {
      const abort = () => {
        pending.delete(id);
        reject(signal?.reason instanceof Error ? signal.reason : new DOMException('This operation was aborted', 'AbortError'));
      };
      signal?.addEventListener('abort', abort, { once: true });
      pending.set(id, {
        resolve: (message) => (signal?.removeEventListener('abort', abort), resolve(message)),
        reject: (error) => (signal?.removeEventListener('abort', abort), reject(error)),
      });
      send({ type: 'fetch', id, url: urlOf(input) });
    });
    const headers = new Headers();
    if (answer.contentType) headers.set('content-type', answer.contentType);
    if (answer.retryAfter) headers.set('retry-after', answer.retryAfter);
    return new Response(NO_BODY.has(answer.status) ? null : answer.body, { status: answer.status, headers });
  };

  const reader = new FrameReader(MAX_TO_WORKER_BYTES);
  process.stdin.on('data', (chunk: Buffer) => {
    const { messages, broken } = reader.push(chunk);
    for (const message of messages as ToWorker[]) {
      if (message.type === 'load') handlers.load(message);
      else if (message.type === 'render') handlers.render(message);
      else if (message.type === 'fetched' || message.type === 'fetch-failed') {
        const call = pending.get(message.id);
        pending.delete(message.id);
        if (message.type === 'fetched') call?.resolve(message);
        else call?.reject(new TypeError('fetch failed', { cause: new Error(message.message) }));
      }
    }
    // The server is ours; a broken stream from it means it is going away.
    if (broken) process.exit(1);
  });
  // The server is gone: so is this process.
  process.stdin.on('end', () => process.exit(0));
  out.on('error', () => process.exit(0));
  return { send };
}
