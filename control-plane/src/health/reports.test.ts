// The report schema: what a browser may send, and everything else refused whole.
// Run: node --import tsx --test control-plane/src/health/reports.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REPORT_LIMITS as limits, VITAL_BOUNDS as BOUNDS } from '@netnet/rollout/reports';
import { MAX_BODY_BYTES, MAX_REPORTS, parseBatch } from './reports.ts';

const report = (overrides = {}) => ({ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'loaded', ...overrides });
const body = (value: unknown) => JSON.stringify(value);

describe('parseBatch', () => {
  it('accepts a batch of valid reports, vitals optional, and keeps only their fields', () => {
    const { reports, error } = parseBatch(
      body({ reports: [report(), report({ channel: 'stable', release: '1.3.0-rc.1', outcome: 'fell-back', vitals: { lcp: 1840.5, inp: 120, cls: 0.02 } })] }),
    );
    assert.equal(error, undefined);
    assert.deepEqual(reports, [report(), report({ channel: 'stable', release: '1.3.0-rc.1', outcome: 'fell-back', vitals: { lcp: 1840.5, inp: 120, cls: 0.02 } })]);
  });

  it('accepts every channel and outcome, and bytes as well as text', () => {
    for (const channel of ['stable', 'canary', 'override']) {
      for (const outcome of ['loaded', 'fell-back', 'failed', 'boundary-error', 'uncaught-error']) {
        assert.equal(parseBatch(Buffer.from(body({ reports: [report({ channel, outcome })] }))).error, undefined, `${channel} ${outcome}`);
      }
    }
  });

  const refused = {
    'not JSON': '{"reports": [',
    'not UTF-8': Buffer.from([0x7b, 0xff, 0x7d]),
    'an array': body([report()]),
    'no reports': body({ reports: [] }),
    'reports not a list': body({ reports: report() }),
    'a field beside reports': body({ reports: [report()], page: '/title/604' }),
    [`more than ${MAX_REPORTS} reports`]: body({ reports: Array.from({ length: MAX_REPORTS + 1 }, () => report()) }),
    'a member id': body({ reports: [report({ uid: 'abc123' })] }),
    'an email': body({ reports: [report({ email: 'a@b.example' })] }),
    'a URL': body({ reports: [report({ url: 'https://netnet.example/title/604?q=x' })] }),
    'a URL in the vitals': body({ reports: [report({ vitals: { lcp: 10, url: '/x' } })] }),
    'a __proto__ field': '{"reports":[{"remote":"remote-title","release":"1.4.0","channel":"canary","outcome":"loaded","__proto__":{"x":1}}]}',
    'an unknown remote': body({ reports: [report({ remote: 'remote-admin' })] }),
    'the shell as remote': body({ reports: [report({ remote: 'shell' })] }),
    'a version with v': body({ reports: [report({ release: 'v1.4.0' })] }),
    'a version with build metadata': body({ reports: [report({ release: '1.4.0+abc' })] }),
    'a version as number': body({ reports: [report({ release: 1.4 })] }),
    'an overlong version': body({ reports: [report({ release: `1.4.0-${'a'.repeat(80)}` })] }),
    'an unknown channel': body({ reports: [report({ channel: 'beta' })] }),
    'an unknown outcome': body({ reports: [report({ outcome: 'ok' })] }),
    'neither outcome nor vitals': body({ reports: [{ remote: 'remote-title', release: '1.4.0', channel: 'canary' }] }),
    'no outcome and empty vitals': body({ reports: [{ remote: 'remote-title', release: '1.4.0', channel: 'canary', vitals: {} }] }),
    'vitals-only with empty vitals and a bad one': body({ reports: [{ remote: 'remote-title', release: '1.4.0', channel: 'canary', vitals: { lcp: -5 } }] }),
    'an LCP as text': body({ reports: [report({ vitals: { lcp: '1800' } })] }),
    'a negative LCP': body({ reports: [report({ vitals: { lcp: -1 } })] }),
    'an LCP over 60 s': body({ reports: [report({ vitals: { lcp: 60_001 } })] }),
    'an INP over 60 s': body({ reports: [report({ vitals: { inp: 1e9 } })] }),
    'a CLS over 10': body({ reports: [report({ vitals: { cls: 11 } })] }),
    'vitals as a list': body({ reports: [report({ vitals: [1, 2, 3] })] }),
    'a report as a string': body({ reports: ['remote-title'] }),
    'one bad report among good ones': body({ reports: [report(), report(), report({ outcome: 'exploded' })] }),
    'a body over 16 KB': body({ reports: [report({ padding: 'x'.repeat(MAX_BODY_BYTES) })] }),
    'a ticket that is not text': body({ ticket: { id: 'x' }, reports: [report()] }),
    'an empty ticket': body({ ticket: '', reports: [report()] }),
    'a ticket over the limit': body({ ticket: 'a'.repeat(limits.maxTicketLength + 1), reports: [report()] }),
  };
  for (const [what, input] of Object.entries(refused)) {
    it(`refuses ${what}`, () => {
      const result = parseBatch(input);
      assert.equal(result.reports, undefined);
      assert.equal(typeof result.error, 'string');
      assert.ok(result.error.length < 120, result.error);
    });
  }

  it('accepts vitals without an outcome: samples that come when the member leaves, not a session', () => {
    const vitalsOnly = { remote: 'remote-title', release: '1.4.0', channel: 'canary', vitals: { lcp: 1200, cls: 0 } };
    assert.deepEqual(parseBatch(body({ reports: [vitalsOnly] })).reports, [vitalsOnly]);
  });

  it('gives back the page’s ticket as sent, for the collector to verify, and none when there is none', () => {
    const ticket = `${'p'.repeat(100)}.${'s'.repeat(43)}`;
    assert.deepEqual(parseBatch(body({ ticket, reports: [report()] })), { reports: [report()], ticket });
    assert.equal(parseBatch(body({ ticket: 'a'.repeat(limits.maxTicketLength), reports: [report()] })).ticket?.length, limits.maxTicketLength);
    assert.deepEqual(parseBatch(body({ reports: [report()] })), { reports: [report()], ticket: undefined });
  });

  it('keeps an outcome whose vitals are empty, as a session without samples', () => {
    assert.deepEqual(parseBatch(body({ reports: [report({ vitals: {} })] })).reports, [report()]);
  });

  it('takes a batch up to the limits of the report format the browser holds too (@netnet/rollout), and not past them', () => {
    const [, highestLcp] = BOUNDS.lcp;
    assert.equal(parseBatch(body({ reports: [report({ vitals: { lcp: highestLcp } })] })).error, undefined);
    assert.match(parseBatch(body({ reports: [report({ vitals: { lcp: highestLcp + 1 } })] })).error ?? '', /lcp must be a number/);
    const longest = `1.4.0-${'a'.repeat(limits.maxVersionLength - 6)}`;
    assert.equal(parseBatch(body({ reports: [report({ release: longest })] })).error, undefined);
    assert.match(parseBatch(body({ reports: [report({ release: `${longest}a` })] })).error ?? '', /release must be a version/);
  });

  it('names the report at fault', () => {
    assert.match(parseBatch(body({ reports: [report(), report({ channel: 'beta' })] })).error ?? '', /^report 1: channel/);
  });
});
