// Log lines holding a client's input (./safeLog.ts): one line each, whatever the input, and a rate.
// Run: node --import tsx --test control-plane/src/safeLog.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { quote, throttledLog } from './safeLog.ts';

describe('quote', () => {
  it('keeps a forged line on the line it came in: newlines, returns and control characters escaped', () => {
    const forged = 'dev:x\n[guard] rollback remote-title 1.4.0\r\u001b[2K';
    const line = `[netnet] dev pin of remote-title refused: ${quote(forged)}`;
    assert.equal(line.split(/[\n\r]/).length, 1);
    assert.match(line, /"dev:x\\n\[guard\] rollback remote-title 1\.4\.0\\r\\u001b\[2K"/);
  });

  it('cuts what is longer than its limit', () => {
    assert.equal(quote('a'.repeat(500), 10), JSON.stringify(`${'a'.repeat(10)}…`));
  });
});

describe('throttledLog', () => {
  it('writes one line per interval and says how many it left out', () => {
    const lines: string[] = [];
    let at = 0;
    const log = throttledLog((line) => lines.push(line), { everyMs: 1000, now: () => at });
    for (let i = 0; i < 100; i += 1) log(`refused ${i}`);
    at = 1000;
    log('refused again');
    assert.deepEqual(lines, ['refused 0', 'refused again (and 99 more like it left out of the log since the last)']);
  });
});
