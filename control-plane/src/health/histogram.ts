// LCP samples kept as counts in fixed, log-spaced buckets: memory and snapshot size stay bounded
// however many pages report, and a quantile read from them is within about 2 % of the sample's.
import { VITAL_BOUNDS } from '@netnet/rollout/reports';

// 16 buckets per doubling: each bucket spans 4.4 %, so its geometric middle is within 2.2 % of
// any value in it.
const PER_DOUBLING = 16;

/** Counts per bucket (dense: one entry per bucket). */
export type Histogram = Uint32Array;

/** The bucket of a value in ms: 0 holds everything under 1 ms. */
export function bucketOf(ms: number): number {
  if (!(ms >= 1)) return 0;
  return 1 + Math.floor(Math.log2(ms) * PER_DOUBLING);
}

/** How many buckets a histogram of LCP needs (the last one holds the 60 s bound). */
export const BUCKETS = bucketOf(VITAL_BOUNDS.lcp[1]) + 1;

// Reads within a histogram's length: a typed array's element there is always a number.
const at = (histogram: Histogram, index: number): number => histogram[index] ?? 0;

/** The value a bucket stands for: the geometric middle of its range, in whole ms. */
export function bucketValue(index: number): number {
  if (index <= 0) return 0;
  return Math.round(2 ** ((index - 0.5) / PER_DOUBLING));
}

// Counts fit 32 bits: a window holds far fewer than 4 billion pages.
export const emptyHistogram = (): Histogram => new Uint32Array(BUCKETS);

export function countOf(histogram: Histogram): number {
  let total = 0;
  for (let index = 0; index < histogram.length; index += 1) total += at(histogram, index);
  return total;
}

/** The rank of the q-quantile (nearest rank) among `count` samples. */
const rankOf = (q: number, count: number): number => Math.max(1, Math.ceil(q * count));

/**
 * The bucket holding the q-quantile (nearest rank), or -1 when empty. With `other`, of both
 * histograms together; `total` is their sample count when the caller has it already.
 */
function quantileBucket(histogram: Histogram, q: number, other: Histogram | null = null, total = countOf(histogram) + (other ? countOf(other) : 0)): number {
  if (total === 0) return -1;
  const rank = rankOf(q, total);
  let seen = 0;
  for (let index = 0; index < BUCKETS; index += 1) {
    seen += at(histogram, index) + (other ? at(other, index) : 0);
    if (seen >= rank) return index;
  }
  return BUCKETS - 1;
}

/** The q-quantile in ms, or null with no samples. */
export function quantile(histogram: Histogram, q: number, total = countOf(histogram)): number | null {
  const index = quantileBucket(histogram, q, null, total);
  return index < 0 ? null : bucketValue(index);
}

/** How many samples lie in buckets strictly above `index`. */
export function countAbove(histogram: Histogram, index: number): number {
  let count = 0;
  for (let bucket = index + 1; bucket < histogram.length; bucket += 1) count += at(histogram, bucket);
  return count;
}

/**
 * Two histograms at the q-quantile in one pass: the bucket of each one's quantile, of both
 * together, and how many samples of each lie strictly above the bucket of both together.
 * `aCount` and `bCount` are their sample counts (countOf()), when the caller has them already.
 */
export function splitAtQuantile(a: Histogram, b: Histogram, q: number, aCount = countOf(a), bCount = countOf(b)) {
  // From the top bucket down, with what lies strictly above each: a bucket holds the quantile
  // when no more than count − rank samples lie above it, and the lowest such bucket is the one.
  // The guard's quantile (p75) sits high, so this reads fewer buckets than counting up would.
  const aLimit = aCount - rankOf(q, aCount);
  const bLimit = bCount - rankOf(q, bCount);
  const bothLimit = aCount + bCount - rankOf(q, aCount + bCount);
  let aBucket = -1;
  let bBucket = -1;
  let bothBucket = -1;
  let aAbove = 0;
  let bAbove = 0;
  let aAboveIndex = 0;
  let bAboveIndex = 0;
  for (let index = BUCKETS - 1; index >= 0; index -= 1) {
    const aHolds = aCount > 0 && aAboveIndex <= aLimit;
    const bHolds = bCount > 0 && bAboveIndex <= bLimit;
    const bothHold = aCount + bCount > 0 && aAboveIndex + bAboveIndex <= bothLimit;
    // Lower buckets only have more above them: none of the three can be lower.
    if (!aHolds && !bHolds && !bothHold) break;
    if (aHolds) aBucket = index;
    if (bHolds) bBucket = index;
    if (bothHold) {
      bothBucket = index;
      aAbove = aAboveIndex;
      bAbove = bAboveIndex;
    }
    aAboveIndex += at(a, index);
    bAboveIndex += at(b, index);
  }
  return { aBucket, bBucket, bothBucket, aAbove, bAbove };
}
