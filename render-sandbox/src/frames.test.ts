/**
 * @jest-environment node
 */
import { randomBytes } from 'node:crypto';
import { encodeFrame, FrameReader } from './frames.ts';

// The channel's reader fuzzed: whatever bytes a release writes, in whatever pieces, the reader
// gives the well-formed messages before the first fault and then one verdict, and never throws.

const MAX = 64 * 1024;
const messages = [{ type: 'ready' }, { type: 'rendered', id: 1, html: '<p>é</p>'.repeat(100), catalogue: {}, errors: [], cutShort: false }, { type: 'fetch', id: 2, url: 'http://x/3/movie/1' }];

/** A small deterministic generator, so a failure names the seed that gives it. */
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => ((state = (state * 1664525 + 1013904223) >>> 0), state);
  return { int: (below: number) => next() % below, seed };
}

/** `bytes` cut into pieces at random places, from one byte to all of it. */
function pieces(bytes: Buffer, random: ReturnType<typeof generator>): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + random.int(random.int(4) === 0 ? bytes.length : 16);
    out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

function readAll(reader: FrameReader, chunks: Buffer[]) {
  const got: unknown[] = [];
  let broken: string | null = null;
  for (const chunk of chunks) {
    const outcome = reader.push(chunk);
    got.push(...outcome.messages);
    broken = outcome.broken;
  }
  return { got, broken };
}

it('reads well-formed frames whole, whatever pieces they arrive in, one byte at a time included', () => {
  const stream = Buffer.concat(messages.map(encodeFrame));
  for (let seed = 1; seed <= 200; seed += 1) {
    const { got, broken } = readAll(new FrameReader(MAX), pieces(stream, generator(seed)));
    expect({ seed, got, broken }).toEqual({ seed, got: messages, broken: null });
  }
  const oneByOne = readAll(new FrameReader(MAX), [...stream].map((byte) => Buffer.from([byte])));
  expect(oneByOne).toEqual({ got: messages, broken: null });
});

it('says a stream is broken, and keeps saying it, on a frame that is not JSON, empty, or over the limit', () => {
  const notJson = Buffer.from([0, 0, 0, 2, 0x78, 0x0a]);
  expect(readAll(new FrameReader(MAX), [encodeFrame(messages[0]), notJson, encodeFrame(messages[0])])).toEqual({ got: [messages[0]], broken: 'a frame that is not JSON' });
  expect(readAll(new FrameReader(MAX), [Buffer.alloc(4)])).toEqual({ got: [], broken: 'an empty frame' });
  const huge = Buffer.from([0xff, 0xff, 0xff, 0xff]);
  const reader = new FrameReader(MAX);
  expect(readAll(reader, [huge])).toEqual({ got: [], broken: `a frame of ${0xffffffff} bytes (at most ${MAX})` });
  expect(reader.push(encodeFrame(messages[0]))).toEqual({ messages: [], broken: `a frame of ${0xffffffff} bytes (at most ${MAX})` });
  // Over the limit is refused on its header: not a byte of its body is held.
  expect(readAll(new FrameReader(MAX), [Buffer.from([0, 1, 0, 1])]).broken).toMatch(/^a frame of 65537 bytes/);
});

it('holds half a frame without a verdict until the rest comes', () => {
  const frame = encodeFrame(messages[1]);
  const reader = new FrameReader(MAX);
  expect(reader.push(frame.subarray(0, 3))).toEqual({ messages: [], broken: null });
  expect(reader.midFrame).toBe(true);
  expect(reader.push(frame.subarray(3, 100))).toEqual({ messages: [], broken: null });
  expect(reader.push(frame.subarray(100))).toEqual({ messages: [messages[1]], broken: null });
  expect(reader.midFrame).toBe(false);
});

it('never throws on random bytes, in random pieces, before or after good frames', () => {
  for (let seed = 1; seed <= 500; seed += 1) {
    const random = generator(seed);
    const garbage = randomBytes(1 + random.int(4096));
    const good = encodeFrame(messages[random.int(messages.length)]);
    const stream = random.int(2) === 0 ? Buffer.concat([good, garbage]) : Buffer.concat([garbage, good]);
    const reader = new FrameReader(MAX);
    let outcome: { got: unknown[]; broken: string | null } | undefined;
    expect(() => (outcome = readAll(reader, pieces(stream, random)))).not.toThrow();
    // Whatever it made of them: only whole messages, and a verdict or half a frame still coming.
    expect(outcome!.broken !== null || reader.midFrame || outcome!.got.length > 0).toBe(true);
  }
});

it('reads a flood of bytes with no frame in it in bounded memory: a verdict, not a growing buffer', () => {
  const reader = new FrameReader(MAX);
  const flood = Buffer.alloc(1024 * 1024, 'x');
  const before = process.memoryUsage().arrayBuffers;
  let broken: string | null = null;
  for (let round = 0; round < 64 && broken === null; round += 1) broken = reader.push(flood).broken;
  // "xxxx" announces a frame of 0x78787878 bytes: refused on the header.
  expect(broken).toBe(`a frame of ${0x78787878} bytes (at most ${MAX})`);
  expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 * 1024);
});
