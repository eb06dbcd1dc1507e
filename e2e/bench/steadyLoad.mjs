// Load at a steady rate for the benchmarks, each request sent on time whether or not earlier ones
// have answered. Autocannon's own rate limit would not do: each of its connections sends its share
// of a second back to back, then pauses until the next second, so the whole second's requests
// arrive at once and the latency measured is that burst's.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Calls `send(index)` `rate` times a second for `duration` seconds. Timers are good to a
 * millisecond or so; a late one is caught up at once, as an open load would.
 * @returns {Promise<{ samples: object[], failures: string[], seconds: number }>} `seconds`: the time
 *   the requests were sent in, not the time the last took to answer
 */
export async function steadyLoad({ rate, duration, send }) {
  const total = Math.round(rate * duration);
  const samples = [];
  const failures = [];
  const started = performance.now();
  const sent = [];
  for (let i = 0; i < total; i += 1) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await sleep(wait);
    sent.push(send(i).then((sample) => samples.push(sample), (error) => failures.push(error.message)));
  }
  const seconds = (performance.now() - started) / 1000 + 1 / rate;
  await Promise.all(sent);
  return { samples, failures, seconds };
}

/** The p-th percentile (nearest rank) of some numbers; null for none. */
export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;
};
