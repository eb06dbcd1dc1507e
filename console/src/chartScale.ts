// The hour chart's scales (./HourChart.tsx): a top rounded up to a round number, so its half is
// round too and both can be labelled, and the minutes on the time axis worth a label.

/** The smallest of 1, 2, 4, 5 and 10 × a power of ten at or above `top` (at least 2 for counts, whose half is a whole number). */
export function roundTop(top: number, { whole = false }: { whole?: boolean } = {}): number {
  const floor = whole ? 2 : 0;
  if (!(top > 0)) return Math.max(floor, 1);
  const power = 10 ** Math.floor(Math.log10(top));
  const step = [1, 2, 4, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= top * (1 - 1e-9)) ?? 10 * power;
  return Math.max(floor, step);
}

/** The minutes from `from` to `to` that fall on a multiple of `every` (UTC), for the time axis's labels. */
export function minuteTicks(from: number, to: number, every = 10): number[] {
  const ticks: number[] = [];
  for (let minute = Math.ceil(from / every) * every; minute <= to; minute += every) ticks.push(minute);
  return ticks;
}
