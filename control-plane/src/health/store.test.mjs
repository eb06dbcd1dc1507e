// The store keeps every batch it acknowledged across a crash, drops a torn last line, and counts
// nothing twice after a compaction.
// Run: node --test control-plane/src/health/store.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { MINUTE_MS } from './figures.mjs';
import { LOG_FILE, openStore, readFigures, SNAPSHOT_FILE } from './store.mjs';

const T0 = Date.UTC(2025, 0, 6, 9, 0, 0);
const folders = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'netnet-health-store-'));
  folders.push(dir);
  return dir;
};
after(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const report = (overrides = {}) => ({ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'loaded', ...overrides });
const clock = (at = T0) => () => at;

async function fill(store, batches) {
  for (let i = 0; i < batches; i += 1) {
    await store.append([report({ outcome: i % 7 === 0 ? 'fell-back' : 'loaded', vitals: { lcp: 1000 + i } }), report({ channel: 'stable', release: '1.3.0' })], T0 + i * 1000);
  }
}

describe('openStore', () => {
  it('gives back, after a crash (never closed), exactly the figures it acknowledged', async () => {
    const dir = folder();
    const store = await openStore({ dir, now: clock(T0 + 100_000) });
    await fill(store, 30);
    // No close(): the process "dies" here, with the log file still open.
    const reopened = await openStore({ dir, now: clock(T0 + 100_000) });
    assert.deepEqual(reopened.figures.toJSON(), store.figures.toJSON());
    assert.equal(reopened.figures.series('remote-title', '1.4.0', 'canary').totals.sessions, 30);
    assert.equal(reopened.figures.series('remote-title', '1.4.0', 'canary').totals.failures, 5);
    await reopened.close();
  });

  it('writes batches that arrive together in one go, each acknowledged only once written', async () => {
    const dir = folder();
    const store = await openStore({ dir, now: clock() });
    await Promise.all(Array.from({ length: 200 }, (_, i) => store.append([report()], T0 + i)));
    const lines = readFileSync(join(dir, LOG_FILE), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((line) => line.seq), Array.from({ length: 200 }, (_, i) => i + 1));
    assert.equal(store.figures.series('remote-title', '1.4.0', 'canary').totals.sessions, 200);
    await store.close();
    await assert.rejects(store.append([report()], T0), /closed/);
  });

  it('ignores a torn last line, and cuts it before appending the next one', async () => {
    const dir = folder();
    const store = await openStore({ dir, now: clock() });
    await fill(store, 5);
    const before = store.figures.toJSON();
    appendFileSync(join(dir, LOG_FILE), '{"seq":6,"at":1736154000000,"reports":[{"remote":"remote-title","rel');
    const reopened = await openStore({ dir, now: clock() });
    assert.deepEqual(reopened.figures.toJSON(), before);
    await reopened.append([report({ outcome: 'failed' })], T0 + 10_000);
    const again = await openStore({ dir, now: clock() });
    assert.equal(again.figures.series('remote-title', '1.4.0', 'canary').totals.sessions, 6);
    assert.equal(again.figures.series('remote-title', '1.4.0', 'canary').totals.failures, 2);
    for (const line of readFileSync(join(dir, LOG_FILE), 'utf8').trim().split('\n')) JSON.parse(line);
    await again.close();
  });

  it('compacts into a snapshot now and then, and counts nothing twice', async () => {
    const dir = folder();
    const store = await openStore({ dir, now: clock(T0 + 100_000), compactEvery: 10 });
    await fill(store, 25);
    assert.ok(existsSync(join(dir, SNAPSHOT_FILE)));
    assert.ok(readFileSync(join(dir, LOG_FILE), 'utf8').trim().split('\n').length < 10);
    const reopened = await openStore({ dir, now: clock(T0 + 100_000) });
    assert.deepEqual(reopened.figures.toJSON(), store.figures.toJSON());
    assert.equal(reopened.figures.series('remote-title', '1.3.0', 'stable').totals.sessions, 25);
    await reopened.close();
  });

  it('counts nothing twice when a crash left the log behind a newer snapshot', async () => {
    const dir = folder();
    const store = await openStore({ dir, now: clock(T0 + 100_000) });
    await fill(store, 8);
    const log = readFileSync(join(dir, LOG_FILE));
    await store.compact();
    assert.equal(statSync(join(dir, LOG_FILE)).size, 0);
    // As if the process died between renaming the snapshot and emptying the log.
    appendFileSync(join(dir, LOG_FILE), log);
    const reopened = await openStore({ dir, now: clock(T0 + 100_000) });
    assert.equal(reopened.figures.series('remote-title', '1.4.0', 'canary').totals.sessions, 8);
    await reopened.append([report()], T0 + 50_000);
    const again = await openStore({ dir, now: clock(T0 + 100_000) });
    assert.equal(again.figures.series('remote-title', '1.4.0', 'canary').totals.sessions, 9);
    await again.close();
  });

  it('forgets what is older than the window when it opens', async () => {
    const dir = folder();
    const store = await openStore({ dir, now: clock(), windowMinutes: 10 });
    await fill(store, 3);
    const later = await openStore({ dir, now: clock(T0 + 11 * MINUTE_MS), windowMinutes: 10 });
    assert.deepEqual(later.figures.list(), []);
    await later.close();
  });

  it('is read by readFigures without being changed', async () => {
    const dir = folder();
    const store = await openStore({ dir, now: clock(T0 + 100_000) });
    await fill(store, 4);
    appendFileSync(join(dir, LOG_FILE), '{"torn');
    const size = statSync(join(dir, LOG_FILE)).size;
    const figures = readFigures({ dir, now: T0 + 100_000 });
    assert.deepEqual(figures.toJSON(), store.figures.toJSON());
    assert.equal(statSync(join(dir, LOG_FILE)).size, size);
  });

  it('survives kill -9: every batch acknowledged before the kill is there after it', async () => {
    const dir = folder();
    const writer = `
      const { openStore } = await import(${JSON.stringify(new URL('./store.mjs', import.meta.url).href)});
      const store = await openStore({ dir: ${JSON.stringify(dir)}, compactEvery: 50, now: () => ${T0} });
      for (let i = 0; ; i += 1) {
        await store.append([{ remote: 'remote-title', release: '1.4.0', channel: 'canary', outcome: 'loaded' }], ${T0} + i);
        process.stdout.write('ack\\n');
      }`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', writer], { stdio: ['ignore', 'pipe', 'inherit'] });
    let acknowledged = 0;
    await new Promise((resolve) => {
      child.stdout.on('data', (chunk) => {
        acknowledged += chunk.toString().split('\n').filter(Boolean).length;
        // Past a compaction or two, so the snapshot and the log both count.
        if (acknowledged >= 120 && !child.killed) {
          child.kill('SIGKILL');
          resolve();
        }
      });
    });
    await new Promise((resolve) => child.on('exit', resolve));
    const store = await openStore({ dir, now: clock() });
    const sessions = store.figures.series('remote-title', '1.4.0', 'canary').totals.sessions;
    assert.ok(sessions >= acknowledged, `${sessions} counted, ${acknowledged} acknowledged`);
    await store.close();
  });
});
