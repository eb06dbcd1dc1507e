// Where the figures live across restarts: an append-only log of accepted batches, one JSON line
// each, written to the file before the collector answers 204 — so a batch it acknowledged is in
// the file even if the process is killed the next instant (kill -9: what write(2) returned is the
// kernel's, not the process's) — and now and then compacted into a snapshot of the figures.
// Opening replays the snapshot and then the log lines it does not hold.
//
//   <dir>/reports.log    {"seq":12,"at":1736150400000,"reports":[…]}\n …
//   <dir>/figures.json   {"seq":11,"figures":{…}}   (what createFigures().toJSON() gives)
//
// The log is fsynced every `syncEveryMs` (1 s) rather than before each answer: a machine that
// loses power can lose the last second of reports, which costs the guard a second of evidence,
// while an fsync per batch put the disk's flush time (10–100 ms here) on every beacon.
// Appends that arrive while a write is under way wait and go together in the next one (one write).
// A crash mid-write can leave a torn last line: it was never acknowledged, so it is dropped, and
// cut off before anything is appended after it. The snapshot is written beside and renamed over,
// as the rollout file is (control-plane/src/durableWrite.mjs); its `seq` says which log lines it already
// holds, so a crash between the rename and emptying the log counts nothing twice.
import { existsSync, mkdirSync, readFileSync, truncateSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { deployDir } from '../deploy/tree.mjs';
import { fsyncFolder, writeFileDurably } from '../durableWrite.mjs';
import { createFigures } from './figures.mjs';

export const LOG_FILE = 'reports.log';
export const SNAPSHOT_FILE = 'figures.json';

/** Where an environment's figures are kept: beside its rollout file, deploy/health.<env>/. */
export const healthDir = (environment, env = process.env) => join(deployDir(env), `health.${environment}`);


function readSnapshot(dir) {
  const path = join(dir, SNAPSHOT_FILE);
  if (!existsSync(path)) return { seq: 0, figures: null };
  // Written whole or not at all (renamed into place): a snapshot that does not parse is damage
  // from outside, and starting from nothing would silently drop every figure it held.
  const snapshot = JSON.parse(readFileSync(path, 'utf8'));
  return { seq: Number.isInteger(snapshot?.seq) ? snapshot.seq : 0, figures: snapshot?.figures ?? null };
}

/**
 * The complete lines of the log (parsed) and the length of the file up to the last of them; a
 * torn or unreadable line is skipped.
 */
function readLog(dir) {
  const path = join(dir, LOG_FILE);
  if (!existsSync(path)) return { entries: [], completeLength: 0, length: 0 };
  const content = readFileSync(path);
  const completeLength = content.lastIndexOf(0x0a) + 1;
  const entries = [];
  for (const line of content.subarray(0, completeLength).toString('utf8').split('\n')) {
    if (!line) continue;
    try {
      const entry = JSON.parse(line);
      if (Number.isInteger(entry?.seq) && Number.isFinite(entry.at) && Array.isArray(entry.reports)) entries.push(entry);
    } catch {
      // A line torn by a crash and followed by later ones (a store older than the cut below): skipped.
    }
  }
  return { entries, completeLength, length: content.length };
}

/** Snapshot then log into `figures`; returns the last sequence number held. */
function replay(dir, figures, log) {
  const snapshot = readSnapshot(dir);
  if (snapshot.figures) figures.load(snapshot.figures);
  let seq = snapshot.seq;
  for (const entry of log.entries) {
    if (entry.seq <= snapshot.seq) continue;
    figures.record(entry.reports, entry.at);
    seq = Math.max(seq, entry.seq);
  }
  return seq;
}

/**
 * The figures as the store holds them, read without writing anything (for a status or a guard in
 * another process than the collector's).
 */
export function readFigures({ dir, windowMinutes = 60, now = Date.now() }) {
  const figures = createFigures({ windowMinutes });
  replay(dir, figures, readLog(dir));
  figures.prune(now);
  return figures;
}

/**
 * Opens (creating) the store in `dir` and replays it into new figures.
 *
 * @param {{ dir: string, windowMinutes?: number, maxSeries?: number, compactEvery?: number, syncEveryMs?: number, now?: () => number }} options
 *   `compactEvery`: log lines between snapshots; `syncEveryMs`: most time between a write and its fsync.
 * @returns {Promise<{ figures, append(reports, at: number): Promise<void>, compact(): Promise<void>, close(): Promise<void> }>}
 *   `append` resolves once the batch is on disk and counted; rejects (nothing counted) when it cannot be.
 */
export async function openStore({ dir, windowMinutes = 60, maxSeries, compactEvery = 1000, syncEveryMs = 1000, now = Date.now }) {
  mkdirSync(dir, { recursive: true });
  const figures = createFigures({ windowMinutes, maxSeries });
  const logPath = join(dir, LOG_FILE);
  const created = !existsSync(logPath);
  const log = readLog(dir);
  if (log.length > log.completeLength) {
    // Cut the torn tail, so the next line does not start glued to it.
    truncateSync(logPath, log.completeLength);
  }
  let seq = replay(dir, figures, log);
  figures.prune(now());
  let linesSinceSnapshot = log.entries.length;

  const handle = await open(logPath, 'a');
  await handle.sync();
  if (created) fsyncFolder(dir);
  let size = log.completeLength;
  let broken = null;
  let pending = [];
  let flushQueued = false;
  let closed = false;
  // Writes, compactions and the close run one after another: a compaction that empties the log
  // while a batch is being written would erase an acknowledged line.
  let chain = Promise.resolve();
  const enqueue = (job) => {
    const run = chain.then(job);
    chain = run.catch(() => {});
    return run;
  };

  let syncTimer = null;
  function scheduleSync() {
    if (syncTimer) return;
    syncTimer = setTimeout(() => {
      syncTimer = null;
      enqueue(() => handle.sync()).catch(() => {
        // The next write finds out whether the file still takes writes; until then nothing is lost.
      });
    }, syncEveryMs);
    syncTimer.unref();
  }

  async function compactNow() {
    writeFileDurably(join(dir, SNAPSHOT_FILE), JSON.stringify({ seq, figures: figures.toJSON() }));
    await handle.truncate(0);
    await handle.sync();
    size = 0;
    linesSinceSnapshot = 0;
  }

  async function flush() {
    flushQueued = false;
    const batch = pending;
    pending = [];
    const firstSeq = seq + 1;
    const text = batch.map((item, index) => `${JSON.stringify({ seq: firstSeq + index, at: item.at, reports: item.reports })}\n`).join('');
    try {
      if (broken) throw broken;
      const bytes = Buffer.from(text);
      let written = 0;
      while (written < bytes.length) written += (await handle.write(bytes, written)).bytesWritten;
      size += bytes.length;
      scheduleSync();
    } catch (error) {
      // Nothing of this batch was acknowledged: take it off the log, or refuse all later appends
      // rather than write after a half line.
      try {
        await handle.truncate(size);
      } catch {
        broken = error;
      }
      for (const item of batch) item.reject(error);
      return;
    }
    seq += batch.length;
    for (const item of batch) {
      figures.record(item.reports, item.at);
      item.resolve();
    }
    linesSinceSnapshot += batch.length;
    if (linesSinceSnapshot >= compactEvery) {
      try {
        await compactNow();
      } catch {
        // The log still holds everything: compaction is tried again after the next batch.
      }
    }
  }

  return {
    figures,
    append(reports, at) {
      if (closed) return Promise.reject(new Error('the store is closed'));
      return new Promise((resolve, reject) => {
        pending.push({ reports, at, resolve, reject });
        // Batches that arrive while a write is under way wait for the next one, all together.
        if (!flushQueued) {
          flushQueued = true;
          enqueue(flush);
        }
      });
    },
    compact: () => enqueue(compactNow),
    close() {
      closed = true;
      clearTimeout(syncTimer);
      return enqueue(async () => {
        await handle.sync();
        await handle.close();
      });
    },
  };
}
