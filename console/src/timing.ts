// How long a chart takes to draw, as User Timing (DevTools' performance panel shows it, and
// `npm run bench:console` reads it): from the arrival of the figures (their JSON read) to the first
// frame painted with the chart drawn from them. Only the latest mark and measure are kept, so an
// open console's timing buffer does not grow.
const ARRIVED = 'console:figures-arrived';

/** The figures of a view have just arrived. */
export function markArrived() {
  if (typeof performance === 'undefined' || !performance.mark) return;
  performance.clearMarks(ARRIVED);
  performance.mark(ARRIVED);
}

/**
 * Called once a chart drawn from the latest figures is in the DOM (an effect): measures `name`
 * from their arrival to just after the next frame is painted (a task queued from the frame's
 * callback runs once the frame is on screen).
 */
export function measureDrawn(name: string) {
  if (typeof performance === 'undefined' || !performance.measure) return;
  const arrived = performance.getEntriesByName(ARRIVED, 'mark').at(-1);
  if (!arrived) return;
  requestAnimationFrame(() =>
    setTimeout(() => {
      performance.clearMeasures(name);
      performance.measure(name, { start: arrived.startTime, end: performance.now() });
    }, 0),
  );
}
