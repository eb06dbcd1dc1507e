// The framing of the channel between a server and a render process (docs/sandbox.md): each message
// is a 4-byte big-endian length, then that many bytes of JSON. The reader enforces the largest frame
// before it buffers a byte of it, and never throws: whatever a release writes into its descriptors
// (garbage, a frame announcing gigabytes, half a frame, a byte at a time) ends as one `broken`
// verdict, and the server kills that process. Node's own IPC channel throws in the parent on a bad
// line, which took the whole server down.

const HEADER_BYTES = 4;
// Kept as they were when this module loaded, before a release's code could patch the globals: a
// release that replaces JSON.stringify must not be able to make its process's frames lie.
const { stringify, parse } = JSON;

/** One message as a frame. */
export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(stringify(message), 'utf8');
  const frame = Buffer.allocUnsafe(HEADER_BYTES + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, HEADER_BYTES);
  return frame;
}

export interface ReadOutcome {
  /** The messages the bytes completed, in order (parsed JSON, not yet checked against a schema). */
  messages: unknown[];
  /** Why the stream can no longer be read, or null while it is well formed. Once set, it stays. */
  broken: string | null;
}

/**
 * Reads frames out of a byte stream. It holds at most one frame (≤ maxBytes), allocated once its
 * header is in, so bytes arriving one at a time cost no more than a frame arriving whole.
 */
export class FrameReader {
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private headerFilled = 0;
  /** The frame being read, once its header is in, and how much of it has arrived. */
  private body: Buffer | null = null;
  private bodyFilled = 0;
  private brokenBy: string | null = null;

  constructor(private readonly maxBytes: number) {}

  get broken(): string | null {
    return this.brokenBy;
  }

  /** Whether part of a frame has arrived and the rest not yet. */
  get midFrame(): boolean {
    return this.headerFilled > 0 || this.body !== null;
  }

  push(chunk: Buffer): ReadOutcome {
    const messages: unknown[] = [];
    let at = 0;
    while (!this.brokenBy && at < chunk.length) {
      if (!this.body) {
        const count = Math.min(HEADER_BYTES - this.headerFilled, chunk.length - at);
        chunk.copy(this.header, this.headerFilled, at, at + count);
        this.headerFilled += count;
        at += count;
        if (this.headerFilled < HEADER_BYTES) break;
        this.headerFilled = 0;
        const length = this.header.readUInt32BE(0);
        if (length === 0) this.brokenBy = 'an empty frame';
        else if (length > this.maxBytes) this.brokenBy = `a frame of ${length} bytes (at most ${this.maxBytes})`;
        else {
          this.body = Buffer.allocUnsafe(length);
          this.bodyFilled = 0;
        }
        continue;
      }
      const count = Math.min(this.body.length - this.bodyFilled, chunk.length - at);
      chunk.copy(this.body, this.bodyFilled, at, at + count);
      this.bodyFilled += count;
      at += count;
      if (this.bodyFilled < this.body.length) break;
      const body = this.body;
      this.body = null;
      try {
        messages.push(parse(body.toString('utf8')));
      } catch {
        this.brokenBy = 'a frame that is not JSON';
      }
    }
    if (this.brokenBy) this.body = null;
    return { messages, broken: this.brokenBy };
  }
}
