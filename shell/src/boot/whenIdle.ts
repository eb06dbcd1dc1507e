/** Runs work the first page doesn't need once the browser has nothing better to do. */
export const whenIdle = (run: () => void, timeout = 1500) =>
  'requestIdleCallback' in window ? window.requestIdleCallback(run, { timeout }) : setTimeout(run, 200);
